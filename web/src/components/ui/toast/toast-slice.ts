/**
 * Toasts are client-only UI state. At most one is visible (spec section 9): a new toast replaces
 * the one on screen. A spec toast written 'A - B' is title A with description B.
 */
import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastInput {
  title: string;
  description?: string | undefined;
  variant?: ToastVariant | undefined;
}

export interface Toast {
  id: string;
  title: string;
  description: string | null;
  variant: ToastVariant;
}

export interface ToastsState {
  items: Toast[];
}

const initialState: ToastsState = { items: [] };

export const toastsSlice = createSlice({
  name: 'toasts',
  initialState,
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.items = [action.payload, ...state.items].slice(0, TOAST_LIMIT);
      },
      prepare(input: ToastInput) {
        return {
          payload: { id: nanoid(), title: input.title, description: input.description ?? null, variant: input.variant ?? 'default' },
        };
      },
    },
    toastDismissed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((toast) => toast.id !== action.payload);
    },
  },
  selectors: {
    selectToasts: (state) => state.items,
  },
});

export const { toastShown, toastDismissed } = toastsSlice.actions;
export const { selectToasts } = toastsSlice.selectors;
