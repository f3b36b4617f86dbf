/**
 * Redux holds client-only UI state (toasts, the landing page's selected card, the dashboard's
 * selected coin, the chart range, the AI chat's window and conversation). Server data lives only in react-query and is never copied here.
 */
import { configureStore } from '@reduxjs/toolkit';
import { toastsSlice } from '../components/ui/toast/toast-slice';
import { landingSlice } from '../features/landing/stores/landing-slice';
import { chartSlice } from '../features/market-chart/stores/chart-slice';
import { selectedCoinSlice } from '../features/market/stores/selected-coin-slice';
import { chatSlice } from '../features/ai-chat/stores/chat-slice';

export function createStore() {
  return configureStore({
    reducer: {
      [toastsSlice.reducerPath]: toastsSlice.reducer,
      [landingSlice.reducerPath]: landingSlice.reducer,
      [selectedCoinSlice.reducerPath]: selectedCoinSlice.reducer,
      [chartSlice.reducerPath]: chartSlice.reducer,
      [chatSlice.reducerPath]: chatSlice.reducer,
    },
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
