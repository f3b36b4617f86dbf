/** POST /api/subscription/upgrade {tier}: a tier that needs no payment ('Plan Changed'). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscriptionTier } from '@papertrade/domain/auth/contracts';
import { subscriptionChangeResponseSchema, type SubscriptionChangeResponse } from '@papertrade/domain/subscription/contracts';
import { sendJson } from '../../../lib/api-client';
import { subscriptionChanged } from '../subscription-changed';

export const CHANGE_PLAN_PATH = '/api/subscription/upgrade';

export function changePlan(tier: SubscriptionTier): Promise<SubscriptionChangeResponse> {
  return sendJson('POST', CHANGE_PLAN_PATH, { tier }, subscriptionChangeResponseSchema);
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePlan, onSuccess: () => subscriptionChanged(queryClient) });
}
