/** POST /api/subscription/cancel: access continues until `endsAt` (30 days), then Free. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionChangeSchema, type SubscriptionChange } from './subscription-change-response';
import { sendJson } from '../../../lib/api-client';
import { subscriptionChanged } from '../subscription-changed';

export const CANCEL_SUBSCRIPTION_PATH = '/api/subscription/cancel';

export function cancelSubscription(): Promise<SubscriptionChange> {
  return sendJson('POST', CANCEL_SUBSCRIPTION_PATH, undefined, subscriptionChangeSchema);
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: () => subscriptionChanged(queryClient) });
}
