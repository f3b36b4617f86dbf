/** POST /api/subscription/reactivate: undoes a cancellation before its end date. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionChangeResponseSchema, type SubscriptionChangeResponse } from '@papertrade/domain/subscription/contracts';
import { sendJson } from '../../../lib/api-client';
import { subscriptionChanged } from '../subscription-changed';

export const REACTIVATE_SUBSCRIPTION_PATH = '/api/subscription/reactivate';

export function reactivateSubscription(): Promise<SubscriptionChangeResponse> {
  return sendJson('POST', REACTIVATE_SUBSCRIPTION_PATH, undefined, subscriptionChangeResponseSchema);
}

export function useReactivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reactivateSubscription, onSuccess: () => subscriptionChanged(queryClient) });
}
