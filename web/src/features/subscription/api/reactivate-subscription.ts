/** POST /api/subscription/reactivate: undoes a cancellation before its end date. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionChangeSchema, type SubscriptionChange } from './subscription-change-response';
import { sendJson } from '../../../lib/api-client';
import { subscriptionChanged } from '../subscription-changed';

export const REACTIVATE_SUBSCRIPTION_PATH = '/api/subscription/reactivate';

export function reactivateSubscription(): Promise<SubscriptionChange> {
  return sendJson('POST', REACTIVATE_SUBSCRIPTION_PATH, undefined, subscriptionChangeSchema);
}

export function useReactivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reactivateSubscription, onSuccess: () => subscriptionChanged(queryClient) });
}
