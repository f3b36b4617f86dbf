/**
 * Read models of the auth slice, as pure evolves. The projector runtime stores them; query-api and
 * the guards read them. No read model holds a password hash (sign-in checks it on the write side).
 */
import type { Me } from './contracts';
import { tierAndStatusAfter, type SubscriptionEvent } from './subscription';
import { normaliseEmail, normaliseUsername, type UserEvent } from './user';

export const USERS_PROJECTION = 'users';

/** Fields of the users view whose prefix the admin search matches (each indexed by the query side). */
export const USER_SEARCH_FIELDS = ['emailNormalised', 'usernameNormalised', 'fullNameNormalised', 'lastNameNormalised'] as const;

/** The form a search term is compared in: the normalised fields are trimmed and lower case. */
export const normaliseSearch = (q: string) => q.trim().toLowerCase().replace(/\s+/g, ' ');

function nameKeys(firstName: string | null, lastName: string | null) {
  return {
    fullNameNormalised: normaliseSearch([firstName, lastName].filter(Boolean).join(' ')),
    lastNameNormalised: normaliseSearch(lastName ?? ''),
  };
}

export type UserView = Me & {
  emailNormalised: string;
  usernameNormalised: string;
  /** "first last", lower case: the admin search matches a prefix of it (so "ann sm" finds Ann Smith). */
  fullNameNormalised?: string;
  /** The last name, lower case: the admin search matches a prefix of it too ("smith"). */
  lastNameNormalised?: string;
  /** 'YYYY-MM' of createdAt in UTC, for "new this month". */
  createdMonth: string;
  /** 'PREMIUM' + 'ACTIVE' together, kept as a field so it can be counted with an equality filter. */
  premium: boolean;
};

export function evolveUserView(doc: UserView | null, event: UserEvent | SubscriptionEvent): UserView | null {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        id: d.userId,
        email: d.email,
        username: d.username,
        firstName: d.firstName,
        lastName: d.lastName,
        subscriptionTier: doc?.subscriptionTier ?? 'FREE',
        subscriptionStatus: doc?.subscriptionStatus ?? 'ACTIVE',
        isAdmin: doc?.isAdmin ?? false,
        isAuditor: doc?.isAuditor ?? false,
        createdAt: d.registeredAt,
        emailNormalised: normaliseEmail(d.email),
        usernameNormalised: normaliseUsername(d.username),
        ...nameKeys(d.firstName, d.lastName),
        createdMonth: d.registeredAt.slice(0, 7),
        premium: doc?.premium ?? false,
      };
    }
    case 'UserProfileUpdated': {
      if (!doc) return doc;
      const next = { ...doc, ...event.data.changes };
      return {
        ...next,
        emailNormalised: normaliseEmail(next.email),
        usernameNormalised: normaliseUsername(next.username),
        ...nameKeys(next.firstName, next.lastName),
      };
    }
    case 'UserPromotedToAdmin':
      return doc ? { ...doc, isAdmin: true } : doc;
    case 'AuditorRoleGranted':
      return doc ? { ...doc, isAuditor: true } : doc;
    case 'AuditorRoleRevoked':
      return doc ? { ...doc, isAuditor: false } : doc;
    case 'SubscriptionChangedByAdmin':
    case 'SubscriptionActivated':
    case 'SubscriptionPlanChanged':
    case 'SubscriptionExpired': {
      if (!doc) return doc;
      const { tier, status } = tierAndStatusAfter(event)!;
      return { ...doc, subscriptionTier: tier, subscriptionStatus: status, premium: tier === 'PREMIUM' && status === 'ACTIVE' };
    }
    // Checkout, payments, cancel and reactivate leave tier and status as they are.
    case 'CheckoutStarted':
    case 'SubscriptionCancelled':
    case 'SubscriptionReactivated':
    case 'PaymentRecorded':
    case 'PaymentFailed':
    case 'DuplicatePaymentCancelled':
      return doc;
  }
}


/** The public `me` shape: exactly the contract's fields, nothing internal. */
export function toMe(view: UserView): Me {
  const { id, email, username, firstName, lastName, subscriptionTier, subscriptionStatus, isAdmin, createdAt } = view;
  // Documents projected before the role existed lack the flag: no role.
  return { id, email, username, firstName, lastName, subscriptionTier, subscriptionStatus, isAdmin, isAuditor: view.isAuditor ?? false, createdAt };
}
