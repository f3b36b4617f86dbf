/** POST /api/subscription/reactivate: undoes a cancellation before its end date. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionResponseSchema, type SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { sendJson } from '../../../lib/api-client';
import { subscriptionChanged } from '../subscription-changed';

export const REACTIVATE_SUBSCRIPTION_PATH = '/api/subscription/reactivate';

export function reactivateSubscription(): Promise<SubscriptionResponse> {
  return sendJson('POST', REACTIVATE_SUBSCRIPTION_PATH, undefined, subscriptionResponseSchema);
}

export function useReactivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reactivateSubscription, onSuccess: (next) => subscriptionChanged(queryClient, next) });
}
