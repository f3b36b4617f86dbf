/**
 * The toasts of Subscription and Billing (spec section 8), as pure functions so their exact texts
 * are checked without a browser. Failures carry what the server said.
 */
import type { ToastInput } from '../../components/ui/toast/toast-slice';
import { ApiError } from '../../lib/api-client';

/** The problem's detail, else the API client's `status: body`; null when the server never answered. */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.problem?.detail || error.message || null;
}

export function redirectingToPaymentToast(planName: string): ToastInput {
  return { title: 'Redirecting to Payment', description: `Taking you to the secure checkout for ${planName}` };
}

export function checkoutFailedToast(error: unknown): ToastInput {
  return { title: 'Checkout Failed', description: serverMessage(error) ?? 'Failed to start checkout', variant: 'destructive' };
}

export function planChangedToast(planName: string): ToastInput {
  return { title: 'Plan Changed', description: `You are now on ${planName}`, variant: 'success' };
}

export function planChangeFailedToast(error: unknown): ToastInput {
  return { title: 'Plan Change Failed', description: serverMessage(error) ?? 'Failed to change plan', variant: 'destructive' };
}

export function cancelledToast(endsAtFormatted: string | null): ToastInput {
  return {
    title: 'Subscription Cancelled',
    description: endsAtFormatted ? `You keep Premium access until ${endsAtFormatted}` : 'You keep Premium access until the end date',
    variant: 'success',
  };
}

/** Spec section 8: 'Cancellation Failed' with the server's message, or 'Failed to cancel subscription' if none. */
export function cancellationFailedToast(error: unknown): ToastInput {
  return { title: 'Cancellation Failed', description: serverMessage(error) ?? 'Failed to cancel subscription', variant: 'destructive' };
}

export function reactivatedToast(): ToastInput {
  return { title: 'Subscription Reactivated', description: 'Your Premium subscription will continue', variant: 'success' };
}

export function reactivationFailedToast(error: unknown): ToastInput {
  return { title: 'Reactivation Failed', description: serverMessage(error) ?? 'Failed to reactivate subscription', variant: 'destructive' };
}
