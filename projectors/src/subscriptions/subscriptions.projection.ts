/**
 * subscriptions: one document per user with tier, status, the cancellation's end and the billing
 * history (domain/src/subscription/subscription-view.ts). GET /api/subscription, GET
 * /api/subscription/billing and the expiry worker read it.
 */
import type { SubscriptionEvent } from '@papertrade/domain/auth/subscription';
import { SUBSCRIPTIONS_PROJECTION, SUBSCRIPTION_VIEW_EVENT_TYPES, evolveSubscriptionView, type SubscriptionView } from '@papertrade/domain/subscription/subscription-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const subscriptionsProjection: ProjectionDefinition<SubscriptionView> = {
  name: SUBSCRIPTIONS_PROJECTION,
  documentIds: (event) => (SUBSCRIPTION_VIEW_EVENT_TYPES.has(event.type) ? [String(event.data.userId)] : []),
  evolve: (doc, event) => evolveSubscriptionView(doc, event as SubscriptionEvent),
};
