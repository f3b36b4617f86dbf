/**
 * users: the `me` / admin view of every account. Password hashes are in no read model: sign-in checks
 * them on the write side (command-api/src/auth/find-account.ts).
 */
import { TIER_CHANGING_EVENT_TYPES, type SubscriptionEvent } from '@papertrade/domain/auth/subscription';
import type { UserEvent } from '@papertrade/domain/auth/user';
import { USERS_PROJECTION, evolveUserView, type UserView } from '@papertrade/domain/auth/user-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

const USER_EVENTS = new Set(['UserRegistered', 'UserProfileUpdated', 'UserPromotedToAdmin']);

export const usersProjection: ProjectionDefinition<UserView> = {
  name: USERS_PROJECTION,
  documentIds: (event) =>
    USER_EVENTS.has(event.type) || TIER_CHANGING_EVENT_TYPES.has(event.type) ? [String(event.data.userId)] : [],
  evolve: (doc, event) => evolveUserView(doc, event as UserEvent | SubscriptionEvent),
};
