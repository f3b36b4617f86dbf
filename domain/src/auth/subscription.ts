/**
 * The `subscription-{userId}` stream: tier and status changes, one history per user (DESIGN.md
 * section 6): an admin's edit, checkout and activation, plan changes, cancel / reactivate / expiry,
 * and the payments that make up the billing history.
 *
 * Once-only rules live here, keyed by what the outside world names: a checkout session activates
 * once (the success call and the webhook may both arrive, in either order), an invoice is recorded
 * paid once, a failed-payment notice once per Stripe event, and expiry once per cancellation.
 */
import { assertNever, type Decider, type DomainEvent } from '../shared/decider';
import { IllegalStateError } from '../shared/errors';
import type { SubscriptionStatus, SubscriptionTier } from './contracts';

/** A cancelled subscription keeps its access this long (spec: "access continues 30 more days"). */
export const CANCELLATION_GRACE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long a checkout session can be paid. Stripe is given the same end (`expires_at`, which it
 * accepts from 30 minutes to 24 hours), so both agree on when a session stops being the account's
 * one open checkout. Sessions recorded before the end was recorded had Stripe's default, 24 hours.
 */
export const CHECKOUT_SESSION_TTL_MS = 60 * 60 * 1000;
const LEGACY_CHECKOUT_TTL_MS = DAY_MS;
export const checkoutExpiresAt = (now: string) => new Date(Date.parse(now) + CHECKOUT_SESSION_TTL_MS).toISOString();

export type PaymentSource = 'stripe' | 'test';

export type SubscriptionChangedByAdmin = DomainEvent<
  'SubscriptionChangedByAdmin',
  {
    userId: string;
    tier: SubscriptionTier;
    status: SubscriptionStatus;
    previousTier: SubscriptionTier;
    previousStatus: SubscriptionStatus;
    changedBy: string;
    changedAt: string;
  }
>;

export type CheckoutStarted = DomainEvent<
  'CheckoutStarted',
  {
    userId: string;
    sessionId: string;
    planId: string;
    tier: SubscriptionTier;
    amountUsd: number;
    source: PaymentSource;
    startedAt: string;
    /** When the session can no longer be paid (absent from events written before it was recorded: startedAt + 24 h). */
    expiresAt?: string;
    /** Where the browser pays it (Stripe's checkout page; null for the test checkout, whose page is on our origin). */
    url?: string | null;
  }
>;

export type SubscriptionActivated = DomainEvent<
  'SubscriptionActivated',
  {
    userId: string;
    sessionId: string;
    planId: string;
    tier: SubscriptionTier;
    status: 'ACTIVE';
    previousTier: SubscriptionTier;
    previousStatus: SubscriptionStatus;
    /** Stripe's subscription and customer, when Stripe ran the checkout. */
    stripeSubscriptionId: string | null;
    stripeCustomerId: string | null;
    /** Which confirmation arrived first: the payment page's success call or Stripe's webhook. */
    via: 'success' | 'webhook';
    activatedAt: string;
  }
>;

export type SubscriptionPlanChanged = DomainEvent<
  'SubscriptionPlanChanged',
  { userId: string; tier: SubscriptionTier; status: 'ACTIVE'; previousTier: SubscriptionTier; previousStatus: SubscriptionStatus; changedAt: string }
>;

export type SubscriptionCancelled = DomainEvent<'SubscriptionCancelled', { userId: string; tier: SubscriptionTier; endsAt: string; cancelledAt: string }>;

export type SubscriptionReactivated = DomainEvent<'SubscriptionReactivated', { userId: string; tier: SubscriptionTier; reactivatedAt: string }>;

export type SubscriptionExpired = DomainEvent<
  'SubscriptionExpired',
  {
    userId: string;
    tier: 'FREE';
    status: 'EXPIRED';
    previousTier: SubscriptionTier;
    /** What it replaced, so counters move by the difference (absent from events written before it was recorded: ACTIVE then). */
    previousStatus?: SubscriptionStatus;
    /** The cancellation's end date, or null when Stripe ended the subscription. */
    endsAt: string | null;
    reason: 'cancellation-ended' | 'stripe-subscription-deleted';
    expiredAt: string;
  }
>;

export type PaymentRecorded = DomainEvent<
  'PaymentRecorded',
  {
    userId: string;
    /** The Stripe invoice id, or the test checkout's session id. */
    paymentId: string;
    invoiceId: string | null;
    sessionId: string | null;
    amountUsd: number;
    description: string;
    source: PaymentSource;
    paidAt: string;
  }
>;

export type PaymentFailed = DomainEvent<
  'PaymentFailed',
  {
    userId: string;
    /** The Stripe event that reported it (one invoice may fail several times). */
    failureId: string;
    invoiceId: string | null;
    amountUsd: number;
    description: string;
    reason: string;
    failedAt: string;
  }
>;

/**
 * A checkout paid while the account's Premium was already active (through another subscription, or
 * granted by hand): it does not replace the subscription the account has. Its Stripe subscription is
 * cancelled at Stripe (before this is appended), so it bills no further month; the account keeps
 * tracking the one it had.
 */
export type DuplicatePaymentCancelled = DomainEvent<
  'DuplicatePaymentCancelled',
  {
    userId: string;
    sessionId: string;
    planId: string;
    stripeSubscriptionId: string | null;
    /** The Stripe subscription the account keeps (null: the test checkout, or Premium granted by hand). */
    keptStripeSubscriptionId: string | null;
    via: 'success' | 'webhook';
    cancelledAt: string;
  }
>;

export type SubscriptionEvent =
  | SubscriptionChangedByAdmin
  | CheckoutStarted
  | SubscriptionActivated
  | SubscriptionPlanChanged
  | SubscriptionCancelled
  | SubscriptionReactivated
  | SubscriptionExpired
  | PaymentRecorded
  | PaymentFailed
  | DuplicatePaymentCancelled;

export type StartedCheckout = {
  sessionId: string;
  planId: string;
  tier: SubscriptionTier;
  amountUsd: number;
  source: PaymentSource;
  startedAt: string;
  expiresAt: string;
  url: string | null;
};

export type SubscriptionState = {
  tier: SubscriptionTier;
  status: SubscriptionStatus;
  /** ISO end of access of a cancelled subscription; null when not cancelled. */
  endsAt: string | null;
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  /** Checkout sessions started (the test checkout reads its sessions from here). */
  checkouts: StartedCheckout[];
  /** Sessions (and Stripe subscriptions) that already activated: never again. */
  activated: string[];
  /** The session whose activation gave the current access; null when it ended or came another way (an admin). */
  currentSessionId: string | null;
  /** Sessions closed unpaid because another one activated (Stripe: expired; see closeOtherCheckouts). */
  closed: string[];
  /** Sessions (and Stripe subscriptions) paid while Premium was active already: cancelled, never activated. */
  duplicates: string[];
  /** Payment ids recorded paid, failure ids recorded failed. */
  paid: string[];
  failed: string[];
};

export type ChangeSubscriptionByAdmin = {
  type: 'ChangeSubscriptionByAdmin';
  data: { userId: string; tier?: SubscriptionTier; status?: SubscriptionStatus; adminId: string };
  metadata: { now: string };
};
export type StartCheckout = {
  type: 'StartCheckout';
  data: { userId: string; sessionId: string; planId: string; tier: SubscriptionTier; amountUsd: number; source: PaymentSource; expiresAt: string; url: string | null };
  metadata: { now: string };
};
/** The caller has checked that the session is paid and belongs to the user (Stripe or the test store). */
export type ActivateSubscription = {
  type: 'ActivateSubscription';
  data: {
    userId: string;
    sessionId: string;
    planId: string;
    tier: SubscriptionTier;
    stripeSubscriptionId: string | null;
    stripeCustomerId: string | null;
    via: 'success' | 'webhook';
  };
  metadata: { now: string };
};
export type ChangePlan = { type: 'ChangePlan'; data: { userId: string; tier: SubscriptionTier }; metadata: { now: string } };
export type CancelSubscription = { type: 'CancelSubscription'; data: { userId: string }; metadata: { now: string } };
export type ReactivateSubscription = { type: 'ReactivateSubscription'; data: { userId: string }; metadata: { now: string } };
/** The expiry worker's command: expires a cancellation whose end has passed, else nothing. */
export type ExpireSubscription = { type: 'ExpireSubscription'; data: { userId: string }; metadata: { now: string } };
/** Stripe's customer.subscription.deleted: the subscription it names ended. */
export type EndStripeSubscription = { type: 'EndStripeSubscription'; data: { userId: string; stripeSubscriptionId: string }; metadata: { now: string } };
export type RecordPayment = {
  type: 'RecordPayment';
  data: Omit<PaymentRecorded['data'], 'paidAt'>;
  metadata: { now: string };
};
export type RecordPaymentFailure = {
  type: 'RecordPaymentFailure';
  data: Omit<PaymentFailed['data'], 'failedAt'>;
  metadata: { now: string };
};
export type SubscriptionCommand =
  | ChangeSubscriptionByAdmin
  | StartCheckout
  | ActivateSubscription
  | ChangePlan
  | CancelSubscription
  | ReactivateSubscription
  | ExpireSubscription
  | EndStripeSubscription
  | RecordPayment
  | RecordPaymentFailure;

/** Every account starts on the free plan, active. */
export const initialSubscriptionState = (): SubscriptionState => ({
  tier: 'FREE',
  status: 'ACTIVE',
  endsAt: null,
  stripeSubscriptionId: null,
  stripeCustomerId: null,
  checkouts: [],
  activated: [],
  currentSessionId: null,
  closed: [],
  duplicates: [],
  paid: [],
  failed: [],
});

export const isCancelled = (state: Pick<SubscriptionState, 'endsAt'>) => state.endsAt !== null;
export const premiumActive = (state: SubscriptionState) => state.tier === 'PREMIUM' && state.status === 'ACTIVE';

/**
 * What a checkout session is now, as the payment page and the test checkout tell it:
 * - open: it can be paid;
 * - paid: paid (the test checkout's Pay button), not yet confirmed;
 * - active: it activated the subscription the account has now;
 * - superseded: it activated one, which has since ended or been replaced (a move to Free, expiry, an admin's change);
 * - duplicate: paid while Premium was active already, so cancelled at the provider (DuplicatePaymentCancelled);
 * - closed: closed unpaid (another checkout activated, or the account is on an active Premium);
 * - expired: not paid in time (CHECKOUT_SESSION_TTL_MS);
 * - unknown: no such session on this account.
 */
export type CheckoutStatus = 'open' | 'paid' | 'active' | 'superseded' | 'duplicate' | 'closed' | 'expired' | 'unknown';

export function checkoutStatus(state: SubscriptionState, sessionId: string, now: string): CheckoutStatus {
  if (state.duplicates.includes(sessionId)) return 'duplicate';
  if (state.activated.includes(sessionId)) return state.currentSessionId === sessionId ? 'active' : 'superseded';
  if (!state.checkouts.some((c) => c.sessionId === sessionId)) return 'unknown';
  if (state.paid.includes(sessionId)) return 'paid';
  if (state.closed.includes(sessionId)) return 'closed';
  const started = state.checkouts.find((c) => c.sessionId === sessionId)!;
  if (Date.parse(now) >= Date.parse(started.expiresAt)) return 'expired';
  // A second subscription must not start while one is active (Premium granted by hand, say).
  if (premiumActive(state)) return 'closed';
  return 'open';
}

/** The account's one open checkout (the newest, should older ones remain from before the rule), or null. */
export function openCheckout(state: SubscriptionState, now: string): StartedCheckout | null {
  for (let i = state.checkouts.length - 1; i >= 0; i--) {
    const c = state.checkouts[i]!;
    if (checkoutStatus(state, c.sessionId, now) === 'open') return c;
  }
  return null;
}

export function changeSubscriptionByAdmin(command: ChangeSubscriptionByAdmin, state: SubscriptionState): SubscriptionEvent[] {
  const tier = command.data.tier ?? state.tier;
  const status = command.data.status ?? state.status;
  if (tier === state.tier && status === state.status) return [];
  return [
    {
      type: 'SubscriptionChangedByAdmin',
      data: {
        userId: command.data.userId,
        tier,
        status,
        previousTier: state.tier,
        previousStatus: state.status,
        changedBy: command.data.adminId,
        changedAt: command.metadata.now,
      },
    },
  ];
}

function startCheckout(command: StartCheckout, state: SubscriptionState): SubscriptionEvent[] {
  if (command.data.tier === 'FREE') throw new IllegalStateError('The Free Starter plan needs no payment');
  if (premiumActive(state) && isCancelled(state)) {
    throw new IllegalStateError('Your Premium Pro subscription is cancelled but still running: reactivate it instead of paying again');
  }
  if (premiumActive(state)) throw new IllegalStateError('You already have an active Premium Pro subscription');
  if (state.checkouts.some((c) => c.sessionId === command.data.sessionId)) return [];
  // One open checkout per account: while one can be paid, no second one is recorded (the route
  // answers the open one; a session opened at the provider by a request that lost the race is closed there).
  if (openCheckout(state, command.metadata.now)) return [];
  return [{ type: 'CheckoutStarted', data: { ...command.data, startedAt: command.metadata.now } }];
}

function activate(command: ActivateSubscription, state: SubscriptionState): SubscriptionEvent[] {
  const { sessionId, stripeSubscriptionId } = command.data;
  const done = [...state.activated, ...state.duplicates];
  if (done.includes(sessionId)) return [];
  if (stripeSubscriptionId !== null && done.includes(stripeSubscriptionId)) return [];
  if (premiumActive(state)) {
    // A second paid subscription would bill every month besides the first, and the account would stop
    // tracking the first (cancelling could no longer stop it): this one is cancelled instead.
    return [
      {
        type: 'DuplicatePaymentCancelled',
        data: {
          userId: command.data.userId,
          sessionId,
          planId: command.data.planId,
          stripeSubscriptionId,
          keptStripeSubscriptionId: state.stripeSubscriptionId,
          via: command.data.via,
          cancelledAt: command.metadata.now,
        },
      },
    ];
  }
  return [
    {
      type: 'SubscriptionActivated',
      data: {
        ...command.data,
        status: 'ACTIVE',
        previousTier: state.tier,
        previousStatus: state.status,
        activatedAt: command.metadata.now,
      },
    },
  ];
}

function changePlan(command: ChangePlan, state: SubscriptionState): SubscriptionEvent[] {
  const { tier } = command.data;
  // Premium to Free is a cancellation at the period's end, as Cancel does: the paid month is kept.
  if (tier === 'FREE' && premiumActive(state)) {
    if (isCancelled(state)) throw new IllegalStateError(`Your Premium Pro subscription is already cancelled: it moves to Free Starter when access ends (${state.endsAt})`);
    return cancel({ type: 'CancelSubscription', data: { userId: command.data.userId }, metadata: command.metadata }, state);
  }
  if (tier === 'PREMIUM' && !premiumActive(state)) {
    throw new IllegalStateError('Premium Pro is bought through checkout (POST /api/subscription/checkout)');
  }
  if (tier === state.tier && state.status === 'ACTIVE') {
    throw new IllegalStateError(`You are already on the ${tier} plan`);
  }
  return [
    {
      type: 'SubscriptionPlanChanged',
      data: { userId: command.data.userId, tier, status: 'ACTIVE', previousTier: state.tier, previousStatus: state.status, changedAt: command.metadata.now },
    },
  ];
}

function cancel(command: CancelSubscription, state: SubscriptionState): SubscriptionEvent[] {
  if (!premiumActive(state)) throw new IllegalStateError('Only an active Premium subscription can be cancelled');
  if (isCancelled(state)) throw new IllegalStateError(`The subscription is already cancelled; access ends ${state.endsAt}`);
  const endsAt = new Date(Date.parse(command.metadata.now) + CANCELLATION_GRACE_DAYS * DAY_MS).toISOString();
  return [{ type: 'SubscriptionCancelled', data: { userId: command.data.userId, tier: state.tier, endsAt, cancelledAt: command.metadata.now } }];
}

function reactivate(command: ReactivateSubscription, state: SubscriptionState): SubscriptionEvent[] {
  if (!isCancelled(state) || !premiumActive(state)) throw new IllegalStateError('Only a cancelled Premium subscription can be reactivated');
  if (Date.parse(command.metadata.now) >= Date.parse(state.endsAt!)) {
    throw new IllegalStateError('The subscription has already ended; subscribe again through checkout');
  }
  return [{ type: 'SubscriptionReactivated', data: { userId: command.data.userId, tier: state.tier, reactivatedAt: command.metadata.now } }];
}

/** Back to Free: the one way SubscriptionExpired is built, for a cancellation that ran out or a Stripe subscription that ended. */
function expired(userId: string, state: SubscriptionState, reason: SubscriptionExpired['data']['reason'], now: string): SubscriptionEvent[] {
  return [
    {
      type: 'SubscriptionExpired',
      data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: state.tier, previousStatus: state.status, endsAt: state.endsAt, reason, expiredAt: now },
    },
  ];
}

function expire(command: ExpireSubscription, state: SubscriptionState): SubscriptionEvent[] {
  if (!isCancelled(state) || Date.parse(command.metadata.now) < Date.parse(state.endsAt!)) return [];
  return expired(command.data.userId, state, 'cancellation-ended', command.metadata.now);
}

function endStripeSubscription(command: EndStripeSubscription, state: SubscriptionState): SubscriptionEvent[] {
  // Only the subscription that gave the current access can take it away (an old one ending later does not).
  if (state.stripeSubscriptionId !== command.data.stripeSubscriptionId || state.tier !== 'PREMIUM') return [];
  return expired(command.data.userId, state, 'stripe-subscription-deleted', command.metadata.now);
}

function recordPayment(command: RecordPayment, state: SubscriptionState): SubscriptionEvent[] {
  if (state.paid.includes(command.data.paymentId)) return [];
  return [{ type: 'PaymentRecorded', data: { ...command.data, paidAt: command.metadata.now } }];
}

function recordPaymentFailure(command: RecordPaymentFailure, state: SubscriptionState): SubscriptionEvent[] {
  if (state.failed.includes(command.data.failureId)) return [];
  return [{ type: 'PaymentFailed', data: { ...command.data, failedAt: command.metadata.now } }];
}

export function evolveSubscription(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  switch (event.type) {
    case 'SubscriptionChangedByAdmin':
      // An admin's explicit tier and status win over a running cancellation; access is the admin's now.
      return { ...state, tier: event.data.tier, status: event.data.status, endsAt: null, currentSessionId: null };
    case 'CheckoutStarted': {
      const { sessionId, planId, tier, amountUsd, source, startedAt } = event.data;
      const expiresAt = event.data.expiresAt ?? new Date(Date.parse(startedAt) + LEGACY_CHECKOUT_TTL_MS).toISOString();
      return { ...state, checkouts: [...state.checkouts, { sessionId, planId, tier, amountUsd, source, startedAt, expiresAt, url: event.data.url ?? null }] };
    }
    case 'SubscriptionActivated': {
      const { sessionId, stripeSubscriptionId, stripeCustomerId } = event.data;
      // Every other unpaid session of the account closes (Stripe expires them: closeOtherCheckouts).
      const unpaid = state.checkouts.filter((c) => c.sessionId !== sessionId && !state.paid.includes(c.sessionId) && !state.activated.includes(c.sessionId) && !state.closed.includes(c.sessionId));
      return {
        ...state,
        currentSessionId: sessionId,
        closed: [...state.closed, ...unpaid.map((c) => c.sessionId)],
        tier: event.data.tier,
        status: 'ACTIVE',
        endsAt: null,
        stripeSubscriptionId: stripeSubscriptionId ?? state.stripeSubscriptionId,
        stripeCustomerId: stripeCustomerId ?? state.stripeCustomerId,
        activated: [...state.activated, sessionId, ...(stripeSubscriptionId ? [stripeSubscriptionId] : [])],
      };
    }
    case 'SubscriptionPlanChanged':
      return { ...state, tier: event.data.tier, status: 'ACTIVE', endsAt: null, currentSessionId: null };
    case 'SubscriptionCancelled':
      return { ...state, endsAt: event.data.endsAt };
    case 'SubscriptionReactivated':
      return { ...state, endsAt: null };
    case 'SubscriptionExpired':
      return { ...state, tier: 'FREE', status: 'EXPIRED', endsAt: null, currentSessionId: null };
    case 'PaymentRecorded':
      return { ...state, paid: [...state.paid, event.data.paymentId] };
    case 'PaymentFailed':
      return { ...state, failed: [...state.failed, event.data.failureId] };
    case 'DuplicatePaymentCancelled': {
      const { sessionId, stripeSubscriptionId } = event.data;
      return { ...state, duplicates: [...state.duplicates, sessionId, ...(stripeSubscriptionId ? [stripeSubscriptionId] : [])] };
    }
    default:
      return assertNever(event);
  }
}

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  // 2: the state grew (cancellation, checkouts, once-only keys); snapshots of version 1 are rebuilt.
  // 3: checkouts' start, end and URL, the current session, closed and duplicate sessions.
  schemaVersion: 3,
  name: 'subscription',
  initialState: initialSubscriptionState,
  evolve: evolveSubscription,
  decide(command, state) {
    switch (command.type) {
      case 'ChangeSubscriptionByAdmin':
        return changeSubscriptionByAdmin(command, state);
      case 'StartCheckout':
        return startCheckout(command, state);
      case 'ActivateSubscription':
        return activate(command, state);
      case 'ChangePlan':
        return changePlan(command, state);
      case 'CancelSubscription':
        return cancel(command, state);
      case 'ReactivateSubscription':
        return reactivate(command, state);
      case 'ExpireSubscription':
        return expire(command, state);
      case 'EndStripeSubscription':
        return endStripeSubscription(command, state);
      case 'RecordPayment':
        return recordPayment(command, state);
      case 'RecordPaymentFailure':
        return recordPaymentFailure(command, state);
      default:
        return assertNever(command);
    }
  },
};

export const subscriptionStreamId = (userId: string) => `subscription-${userId}`;

/**
 * The tier and status an event leaves the subscription in, or null when it does not change them
 * (checkout started, payments, cancel and reactivate: a cancelled Premium stays PREMIUM / ACTIVE
 * until it expires). The read models that keep tier and status (users, trading-bots) fold with this.
 */
export function tierAndStatusAfter(event: { type: string; data: Record<string, unknown> }): { tier: SubscriptionTier; status: SubscriptionStatus; at: string } | null {
  const e = event as SubscriptionEvent;
  switch (e.type) {
    case 'SubscriptionChangedByAdmin':
      return { tier: e.data.tier, status: e.data.status, at: e.data.changedAt };
    case 'SubscriptionActivated':
      return { tier: e.data.tier, status: e.data.status, at: e.data.activatedAt };
    case 'SubscriptionPlanChanged':
      return { tier: e.data.tier, status: e.data.status, at: e.data.changedAt };
    case 'SubscriptionExpired':
      return { tier: e.data.tier, status: e.data.status, at: e.data.expiredAt };
    default:
      return null;
  }
}

/** Event types after which tier or status may differ. */
export const TIER_CHANGING_EVENT_TYPES: ReadonlySet<string> = new Set([
  'SubscriptionChangedByAdmin',
  'SubscriptionActivated',
  'SubscriptionPlanChanged',
  'SubscriptionExpired',
]);
