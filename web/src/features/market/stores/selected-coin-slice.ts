/** Client-only UI state of the dashboard: the selected coin (ethereum by default, spec section 9). */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface SelectedCoin {
  id: string;
  symbol: string;
}

export interface SelectedCoinState {
  coin: SelectedCoin;
}

/** The symbol travels with the id, so the symbol-keyed calls (/api/price?symbol=) need no lookup first. */
export const DEFAULT_SELECTED_COIN: SelectedCoin = { id: 'ethereum', symbol: 'ETH' };

const initialState: SelectedCoinState = { coin: DEFAULT_SELECTED_COIN };

export const selectedCoinSlice = createSlice({
  name: 'selectedCoin',
  initialState,
  reducers: {
    coinSelected(state, action: PayloadAction<SelectedCoin>) {
      state.coin = action.payload;
    },
  },
  selectors: {
    selectSelectedCoin: (state) => state.coin,
  },
});

export const { coinSelected } = selectedCoinSlice.actions;
export const { selectSelectedCoin } = selectedCoinSlice.selectors;
export type StateWithSelectedCoin = { [selectedCoinSlice.reducerPath]: SelectedCoinState };
