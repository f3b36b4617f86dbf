/**
 * After a command that changes the subscription: GET /api/subscription (usage and plan included),
 * the billing history and `me` (the sidebar's tier badge and the premium gates of other screens)
 * are read again. The command's answer carried the position of its event, which the API client
 * sends as X-Min-Position, so these reads include the change.
 */
import type { QueryClient } from '@tanstack/react-query';
import { meQueryOptions } from '../../lib/auth/get-me';
import { billingHistoryQueryOptions } from './api/get-billing-history';
import { subscriptionQueryOptions } from './api/get-subscription';

export async function subscriptionChanged(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: subscriptionQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: billingHistoryQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  ]);
}
