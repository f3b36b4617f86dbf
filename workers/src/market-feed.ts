/**
 * The market feed worker: every `intervalMs` (MARKET_TICK_MS, 5 s by default) it publishes one tick
 * per supported coin on the bus, subject `market.tick.<coinId>` (subscribe to `market.tick.*` for
 * all), payload `{ coinId, symbol, price, changePercent24h, at }` checked against the contract's
 * `marketTickSchema` (domain/src/market/contracts.ts) before it leaves. The socket relay turns them
 * into MARKET_UPDATE pushes.
 *
 * Ticks are notices (core NATS, at most once): a lost tick is replaced by the next one, so the feed
 * keeps no checkpoint and issues no commands. Every source is read through `MarketData.prices()`.
 * The simulated market's price now is its path's tick (one every 5 s, domain/src/market/market-path.ts):
 * the same price a trade fills at and candles are made of, and the same in every process with one
 * seed; a feed faster than 5 s repeats a tick until the next. CoinGecko is cached 60 s, so ticks
 * repeat until it refreshes.
 *
 * A round that fails (the source unavailable) is logged and counted; the next round tries again.
 * Rounds never overlap: the next one is scheduled when the previous one has finished.
 */
import { marketTickSchema, marketTickSubject, type MarketTick } from '@papertrade/domain/market/contracts';
import type { Bus } from '@papertrade/platform/bus/bus';
import type { Logger } from '@papertrade/platform/config/logger';
import type { CoinPrice, MarketData } from '@papertrade/platform/market/market-data';

/** Every coin's price now, as ticks (not yet validated). */
export type TickSource = () => Promise<MarketTick[]>;

/** Ticks from the port's prices now. */
export function marketTickSource(marketData: Pick<MarketData, 'prices'>): TickSource {
  return async () => (await marketData.prices()).map(fromCoinPrice);
}

function fromCoinPrice(price: CoinPrice): MarketTick {
  return { coinId: price.coinId, symbol: price.symbol, price: price.price, changePercent24h: price.changePercent24h, at: price.at };
}

export interface MarketFeedDeps {
  bus: Bus;
  ticks: TickSource;
  intervalMs: number;
  logger: Logger;
}

export interface MarketFeedStatus {
  name: 'market-feed';
  running: boolean;
  intervalMs: number;
  rounds: number;
  ticksPublished: number;
  failedRounds: number;
  /** The `at` of the last tick published (ISO), if any. */
  lastTickAt: string | null;
  lastError: string | null;
}

export class MarketFeed {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private rounds = 0;
  private ticksPublished = 0;
  private failedRounds = 0;
  private lastTickAt: string | null = null;
  private lastError: string | null = null;

  constructor(private readonly deps: MarketFeedDeps) {
    if (!Number.isInteger(deps.intervalMs) || deps.intervalMs < 1) throw new RangeError(`intervalMs must be a positive whole number, got ${deps.intervalMs}`);
  }

  /** Publishes a first round at once, then one every `intervalMs` until `stop`. Starting twice is harmless. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.deps.logger.info('market feed started', { intervalMs: this.deps.intervalMs });
    this.schedule(0);
  }

  /** Stops scheduling and waits for a round in flight, so nothing is published after it resolves. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.round;
    this.deps.logger.info('market feed stopped', { rounds: this.rounds, ticksPublished: this.ticksPublished });
  }

  status(): MarketFeedStatus {
    return {
      name: 'market-feed',
      running: this.running,
      intervalMs: this.deps.intervalMs,
      rounds: this.rounds,
      ticksPublished: this.ticksPublished,
      failedRounds: this.failedRounds,
      lastTickAt: this.lastTickAt,
      lastError: this.lastError,
    };
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.round = this.publishRound().finally(() => {
        this.round = undefined;
        if (this.running) this.schedule(this.deps.intervalMs);
      });
    }, delayMs);
    // The worker process lives for its health server and bus; a pending tick alone must not keep it up.
    this.timer.unref();
  }

  private async publishRound(): Promise<void> {
    this.rounds += 1;
    try {
      const ticks = await this.deps.ticks();
      for (const candidate of ticks) {
        if (!this.running) return;
        const tick = marketTickSchema.safeParse(candidate);
        if (!tick.success) {
          this.deps.logger.warn('market tick dropped: not a valid tick', { coinId: candidate.coinId, problem: tick.error.issues[0]?.message });
          continue;
        }
        await this.deps.bus.publish(marketTickSubject(tick.data.coinId), tick.data);
        this.ticksPublished += 1;
        this.lastTickAt = tick.data.at;
      }
      this.lastError = null;
    } catch (error) {
      this.failedRounds += 1;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('market feed round failed; the next round tries again', { error: this.lastError });
    }
  }
}
