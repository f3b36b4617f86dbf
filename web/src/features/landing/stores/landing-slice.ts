/** Client-only UI state of the landing page: which feature card is selected. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { landingFeatures, type LandingFeatureId } from '../landing-features';

export interface LandingState {
  selectedFeature: LandingFeatureId;
}

const initialState: LandingState = { selectedFeature: landingFeatures[0].id };

export const landingSlice = createSlice({
  name: 'landing',
  initialState,
  reducers: {
    featureSelected(state, action: PayloadAction<LandingFeatureId>) {
      state.selectedFeature = action.payload;
    },
  },
  selectors: {
    selectSelectedFeature: (state) => state.selectedFeature,
  },
});

export const { featureSelected } = landingSlice.actions;
export const { selectSelectedFeature } = landingSlice.selectors;
export type StateWithLanding = { [landingSlice.reducerPath]: LandingState };
