/** POST /api/subscription/cancel: access continues until `endsAt` (30 days), then Free. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionChangeResponseSchema, type SubscriptionChangeResponse } from '@papertrade/domain/subscription/contracts';
import { sendJson } from '../../../lib/api-client';
import { subscriptionChanged } from '../subscription-changed';

export const CANCEL_SUBSCRIPTION_PATH = '/api/subscription/cancel';

export function cancelSubscription(): Promise<SubscriptionChangeResponse> {
  return sendJson('POST', CANCEL_SUBSCRIPTION_PATH, undefined, subscriptionChangeResponseSchema);
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: () => subscriptionChanged(queryClient) });
}
