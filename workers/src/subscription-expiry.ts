/**
 * The subscription expiry worker: a cancelled Premium keeps its access until `endsAt` (30 days),
 * then this worker appends SubscriptionExpired (tier FREE, status EXPIRED) to `subscription-{userId}`.
 *
 * Each round asks the `subscriptions` read model for cancelled subscriptions whose end has passed
 * (one query: `isCancelled` and a range on `endsAtMs`) and issues ExpireSubscription for each. Once
 * only, also after a restart or with two workers racing: the decider expires only a cancellation
 * whose end has passed and clears it when it does, so the same command again appends nothing; the
 * idempotency key (user and end date) gives the event a deterministic id besides. A read model
 * behind the stream (a reactivation not yet projected) costs nothing: the decider reads the stream.
 * The clock is injected, so tests move time instead of waiting 30 days.
 */
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { SUBSCRIPTIONS_PROJECTION, type SubscriptionView } from '@papertrade/domain/subscription/subscription-view';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { PeriodicRounds } from './periodic-rounds';
import type { Timer } from './signal-engine';

export const SUBSCRIPTION_EXPIRY_ACTOR = 'subscription-expiry';
/** How often a round runs: access ends at most this late after endsAt. */
export const EXPIRY_INTERVAL_MS = 60_000;
/** Subscriptions expired per round at most (the next round takes the rest). */
const BATCH = 500;

export interface SubscriptionExpiryDeps {
  readModels: ReadModels;
  handler: CommandHandler;
  clock: () => Date;
  logger: Logger;
  timer?: Timer;
  intervalMs?: number;
}

export interface SubscriptionExpiryStatus {
  name: 'subscription-expiry';
  running: boolean;
  rounds: number;
  expired: number;
  failures: number;
  lastRoundAt: string | null;
  lastError: string | null;
}

export class SubscriptionExpiry {
  private readonly periodic: PeriodicRounds;
  private rounds = 0;
  private expired = 0;
  private failures = 0;
  private lastRoundAt: string | null = null;
  private lastError: string | null = null;

  constructor(private readonly deps: SubscriptionExpiryDeps) {
    // Counted and logged in runOnce; the next round tries again.
    this.periodic = new PeriodicRounds(() => this.runOnce(), deps.intervalMs ?? EXPIRY_INTERVAL_MS, deps.timer);
  }

  /** A round now, then one every intervalMs until `stop`. Starting twice is harmless. */
  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  status(): SubscriptionExpiryStatus {
    return {
      name: 'subscription-expiry',
      running: this.periodic.isRunning,
      rounds: this.rounds,
      expired: this.expired,
      failures: this.failures,
      lastRoundAt: this.lastRoundAt,
      lastError: this.lastError,
    };
  }

  /** One round: expires every cancelled subscription whose end has passed. Returns how many it expired. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock();
    this.rounds++;
    this.lastRoundAt = now.toISOString();
    let count = 0;
    try {
      const due = await (await this.deps.readModels.collection<SubscriptionView>(SUBSCRIPTIONS_PROJECTION)).find({
        where: { isCancelled: true },
        range: { field: 'endsAtMs', lt: now.getTime() + 1 },
        sort: [{ field: 'endsAtMs', direction: 'asc' }],
        limit: BATCH,
      });
      for (const view of due) {
        try {
          const key = `${view.userId}@${view.endsAt}`;
          const result = await this.deps.handler.handle(
            subscriptionDecider,
            subscriptionStreamId(view.userId),
            { type: 'ExpireSubscription', data: { userId: view.userId }, metadata: { now: now.toISOString() } },
            { actor: SUBSCRIPTION_EXPIRY_ACTOR, correlationId: key, idempotency: { scope: SUBSCRIPTION_EXPIRY_ACTOR, key, requestHash: key } },
          );
          if (result.events.length > 0 && !result.replayed) {
            count++;
            this.deps.logger.info('subscription expired', { userId: view.userId, endsAt: view.endsAt });
          }
        } catch (error) {
          this.failures++;
          this.lastError = error instanceof Error ? error.message : String(error);
          this.deps.logger.warn('subscription expiry failed', { userId: view.userId, error: this.lastError });
        }
      }
    } catch (error) {
      this.failures++;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('subscription expiry round failed', { error: this.lastError });
      throw error;
    }
    this.expired += count;
    return count;
  }
}
