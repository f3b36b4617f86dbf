/**
 * Client-only UI state of the price chart: the chosen range (a timeframe label; 7D by default, spec
 * section 9). The candles themselves are server state and live in react-query, keyed by coin and
 * range. One range for the dashboard: switching coins keeps the range the user chose.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_TIMEFRAME, type TimeframeLabel } from '../timeframes';

export interface ChartState {
  range: TimeframeLabel;
}

const initialState: ChartState = { range: DEFAULT_TIMEFRAME.label };

export const chartSlice = createSlice({
  name: 'chart',
  initialState,
  reducers: {
    rangeSelected(state, action: PayloadAction<TimeframeLabel>) {
      state.range = action.payload;
    },
  },
  selectors: {
    selectChartRange: (state) => state.range,
  },
});

export const { rangeSelected } = chartSlice.actions;
export const { selectChartRange } = chartSlice.selectors;
export type StateWithChart = { [chartSlice.reducerPath]: ChartState };
