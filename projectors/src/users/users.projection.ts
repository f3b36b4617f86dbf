/** users: the `me` / admin view of every account; credentials: the private password hashes. */
import type { SubscriptionEvent } from '@papertrade/domain/auth/subscription';
import type { UserEvent } from '@papertrade/domain/auth/user';
import {
  CREDENTIALS_PROJECTION,
  USERS_PROJECTION,
  evolveCredentials,
  evolveUserView,
  type CredentialsView,
  type UserView,
} from '@papertrade/domain/auth/user-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

const USER_EVENTS = new Set(['UserRegistered', 'UserProfileUpdated', 'UserPromotedToAdmin']);
const SUBSCRIPTION_EVENTS = new Set(['SubscriptionChangedByAdmin']);

export const usersProjection: ProjectionDefinition<UserView> = {
  name: USERS_PROJECTION,
  documentIds: (event) =>
    USER_EVENTS.has(event.type) || SUBSCRIPTION_EVENTS.has(event.type) ? [String(event.data.userId)] : [],
  evolve: (doc, event) => evolveUserView(doc, event as UserEvent | SubscriptionEvent),
};

export const credentialsProjection: ProjectionDefinition<CredentialsView> = {
  name: CREDENTIALS_PROJECTION,
  documentIds: (event) => (event.type === 'UserRegistered' ? [String(event.data.userId)] : []),
  evolve: (doc, event) => evolveCredentials(doc, event as UserEvent),
};
