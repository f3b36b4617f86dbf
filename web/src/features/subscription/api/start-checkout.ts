/**
 * POST /api/subscription/checkout {tier}: starts a payment for a paid plan and answers the URL to
 * send the browser to (Stripe Checkout, or the built-in test checkout page in embedded mode).
 */
import { useMutation } from '@tanstack/react-query';
import type { SubscriptionTier } from '@papertrade/domain/auth/contracts';
import { checkoutResponseSchema, type CheckoutResponse } from '@papertrade/domain/subscription/contracts';
import { sendJson } from '../../../lib/api-client';

export const CHECKOUT_PATH = '/api/subscription/checkout';

export function startCheckout(tier: SubscriptionTier): Promise<CheckoutResponse> {
  return sendJson('POST', CHECKOUT_PATH, { tier }, checkoutResponseSchema);
}

export function useStartCheckout() {
  return useMutation({ mutationFn: startCheckout });
}
