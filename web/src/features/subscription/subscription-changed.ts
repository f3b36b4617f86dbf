/**
 * After a command that changes the subscription: its answer is the new GET /api/subscription, so
 * it goes straight into that cache; the billing history and `me` (the sidebar's tier badge and the
 * premium gates of other screens) are read again.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { meQueryOptions } from '../../lib/auth/get-me';
import { billingHistoryQueryOptions } from './api/get-billing-history';
import { subscriptionQueryOptions } from './api/get-subscription';

export async function subscriptionChanged(queryClient: QueryClient, next: SubscriptionResponse | null): Promise<void> {
  if (next) queryClient.setQueryData(subscriptionQueryOptions().queryKey, next);
  await Promise.all([
    next ? Promise.resolve() : queryClient.invalidateQueries({ queryKey: subscriptionQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: billingHistoryQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  ]);
}
