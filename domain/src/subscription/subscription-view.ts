/**
 * The `subscriptions` read model, as a pure evolve: one document per user whose subscription stream
 * has events, with tier, status, the cancellation's end (for GET /api/subscription and the expiry
 * worker's query) and the billing history (PaymentRecorded / PaymentFailed, newest first). Nothing
 * here is made up: a user who never paid has an empty history.
 */
import type { SubscriptionStatus, SubscriptionTier } from '../auth/contracts';
import { tierAndStatusAfter, type SubscriptionEvent } from '../auth/subscription';
import { planForTier, planInEffect } from '../plans/catalogue';
import type { BillingEntry, SubscriptionEndsAt, SubscriptionResponse } from './contracts';

export const SUBSCRIPTIONS_PROJECTION = 'subscriptions';
/** A bound on the history kept in one document (over 40 years of monthly invoices). */
export const MAX_BILLING_ENTRIES = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

export type SubscriptionView = {
  userId: string;
  tier: SubscriptionTier;
  subscriptionStatus: SubscriptionStatus;
  isCancelled: boolean;
  endsAt: string | null;
  /** endsAt in ms (null when not cancelled), for the expiry worker's range query. */
  endsAtMs: number | null;
  billing: BillingEntry[];
  updatedAt: string;
};

export const SUBSCRIPTION_VIEW_EVENT_TYPES: ReadonlySet<string> = new Set([
  'SubscriptionChangedByAdmin',
  'SubscriptionActivated',
  'SubscriptionPlanChanged',
  'SubscriptionCancelled',
  'SubscriptionReactivated',
  'SubscriptionExpired',
  'PaymentRecorded',
  'PaymentFailed',
]);

const withEntry = (billing: BillingEntry[], entry: BillingEntry) => [entry, ...billing.filter((b) => b.id !== entry.id)].slice(0, MAX_BILLING_ENTRIES);

export function evolveSubscriptionView(doc: SubscriptionView | null, event: SubscriptionEvent): SubscriptionView | null {
  if (!SUBSCRIPTION_VIEW_EVENT_TYPES.has(event.type)) return doc;
  const current: SubscriptionView = doc ?? {
    userId: event.data.userId,
    tier: 'FREE',
    subscriptionStatus: 'ACTIVE',
    isCancelled: false,
    endsAt: null,
    endsAtMs: null,
    billing: [],
    updatedAt: '',
  };
  const changed = tierAndStatusAfter(event);
  if (changed) {
    return { ...current, tier: changed.tier, subscriptionStatus: changed.status, isCancelled: false, endsAt: null, endsAtMs: null, updatedAt: changed.at };
  }
  switch (event.type) {
    case 'SubscriptionCancelled':
      return { ...current, isCancelled: true, endsAt: event.data.endsAt, endsAtMs: Date.parse(event.data.endsAt), updatedAt: event.data.cancelledAt };
    case 'SubscriptionReactivated':
      return { ...current, isCancelled: false, endsAt: null, endsAtMs: null, updatedAt: event.data.reactivatedAt };
    case 'PaymentRecorded': {
      const d = event.data;
      const entry: BillingEntry = { id: d.paymentId, date: d.paidAt, description: d.description, amountUsd: d.amountUsd, status: 'PAID', invoiceId: d.invoiceId, source: d.source };
      return { ...current, billing: withEntry(current.billing, entry), updatedAt: d.paidAt };
    }
    case 'PaymentFailed': {
      const d = event.data;
      const entry: BillingEntry = { id: d.failureId, date: d.failedAt, description: d.description, amountUsd: d.amountUsd, status: 'FAILED', invoiceId: d.invoiceId, source: 'stripe' };
      return { ...current, billing: withEntry(current.billing, entry), updatedAt: d.failedAt };
    }
    default:
      return current;
  }
}

/** endsAt as the client shows it: calendar parts and "December 22, 2026", all in UTC. */
export function endsAtParts(iso: string): SubscriptionEndsAt {
  const date = new Date(iso);
  return {
    day: date.getUTCDate(),
    month: date.getUTCMonth() + 1,
    year: date.getUTCFullYear(),
    formatted: date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
    iso: date.toISOString(),
  };
}

/** Whole days left until endsAt, rounded up (a few hours left is still "1 day"); 0 once passed. */
export function daysRemaining(endsAt: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(endsAt) - now.getTime()) / DAY_MS));
}

/** The cancellation part of the subscription answers (command and query side alike). */
export function cancellationView(endsAt: string | null, now: Date): Pick<SubscriptionResponse, 'isCancelled' | 'endsAt' | 'daysRemaining'> {
  if (endsAt === null) return { isCancelled: false, endsAt: null, daysRemaining: null };
  return { isCancelled: true, endsAt: endsAtParts(endsAt), daysRemaining: daysRemaining(endsAt, now) };
}

/**
 * GET /api/subscription from the read model (or the defaults of a user whose stream is empty) and
 * the counts that exist: trades, and this month's API calls when the caller could read the counter
 * (`apiCalls` given). Every limit is the one enforced, planInEffect's. Strategies and exchanges are not
 * features of this product yet, so they answer 0 with `tracked: false` rather than a made-up number.
 */
export function toSubscriptionResponse(
  view: Pick<SubscriptionView, 'tier' | 'subscriptionStatus' | 'endsAt'> | null,
  counts: { trades: number; apiCalls?: number | undefined },
  now: Date,
): SubscriptionResponse {
  const tier = view?.tier ?? 'FREE';
  const subscriptionStatus = view?.subscriptionStatus ?? 'ACTIVE';
  const plan = planForTier(tier);
  // Every limit is the one the server applies now: an inactive or expired Premium is limited like Free.
  const { limits } = planInEffect({ tier, status: subscriptionStatus });
  return {
    tier,
    subscriptionStatus,
    ...cancellationView(view?.endsAt ?? null, now),
    usage: {
      tradingStrategies: { used: 0, limit: limits.tradingStrategies, tracked: false },
      exchanges: { used: 0, limit: limits.exchanges, tracked: false },
      apiCalls: counts.apiCalls === undefined ? { used: 0, limit: limits.apiCalls, tracked: false } : { used: counts.apiCalls, limit: limits.apiCalls, tracked: true },
      trades: { used: counts.trades, limit: limits.trades, tracked: true },
    },
    plan,
  };
}
