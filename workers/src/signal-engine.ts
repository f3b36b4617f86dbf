/**
 * The signal engine worker: on every closed candle of SIGNAL_CANDLE_MINUTES (5 minutes) it reads each
 * coin's candles from the market-data port, computes the indicators of the last closed one
 * (domain/src/signals/readings.ts) and issues EvaluateSignal on `signals-{SYMBOL}` through the
 * command handler; the decider appends a SignalGenerated only when the evidence changed.
 *
 * On start it evaluates the last closed candle of each coin at once, then wakes at each candle
 * boundary (plus EVALUATION_GRACE_MS) for the candle that has just closed. Clock and timer are
 * injected, so a test can walk the engine through candles without waiting for them.
 *
 * A replay or a restart never doubles a signal: the decider ignores a candle at or before the last
 * signal's, and the signal id and event id derive from symbol and candle time (the command handler's
 * idempotency, key `{SYMBOL}@{candleTime}`), so two engines racing on one candle write one event.
 *
 * A coin whose round fails (the source unavailable, a conflict) is logged and counted; the others
 * go on, and the next candle tries again. Rounds never overlap.
 */
import { coins, type Candle, type Coin } from '@papertrade/domain/market/coins';
import { SIGNAL_CANDLE_MINUTES, SIGNAL_HISTORY_DAYS } from '@papertrade/domain/signals/contracts';
import { closedCandles, readingsOfLastCandle } from '@papertrade/domain/signals/readings';
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { signalDecider, type EvaluateSignal } from '@papertrade/domain/signals/signal.decider';
import { idempotentId, type CommandHandler, type Idempotency } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import type { MarketData } from '@papertrade/platform/market/market-data';

export { SIGNAL_CANDLE_MINUTES, SIGNAL_HISTORY_DAYS };
/** How long after a candle boundary the engine evaluates, so the source has the candle's last minute. */
export const EVALUATION_GRACE_MS = 1000;
/** The actor of the engine's commands, and the scope of its idempotency keys. */
export const SIGNAL_ENGINE_ACTOR = 'signal-engine';

const CANDLE_MS = SIGNAL_CANDLE_MINUTES * 60_000;

/** setTimeout and clearTimeout, injectable. */
export interface Timer {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    // The worker process lives for its health server and bus; a pending evaluation alone must not keep it up.
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface SignalEngineDeps {
  marketData: MarketData;
  handler: CommandHandler;
  clock: () => Date;
  logger: Logger;
  timer?: Timer;
  /** The coins evaluated (all supported coins by default). */
  coins?: readonly Coin[];
  /**
   * The users' AI strategies (issue 19, workers/src/strategies/strategy-engine.ts): after a coin's house
   * signal, each distinct active strategy configuration is evaluated once on the same closed candles.
   */
  strategies?: { evaluateCoin(coin: Coin, closed: readonly Candle[]): Promise<void>; status(): unknown };
}

export interface SignalEngineStatus {
  name: 'signal-engine';
  running: boolean;
  candleMinutes: number;
  rounds: number;
  evaluations: number;
  signalsGenerated: number;
  failures: number;
  /** Open time of the newest candle evaluated (ISO), if any. */
  lastCandleTime: string | null;
  lastError: string | null;
  /** The strategy engine's figures, when it runs here. */
  strategies?: unknown;
}

/** The idempotency of one coin's candle: the same key for every evaluation of it, by any engine. */
export function signalIdempotency(symbol: string, candleTime: string): Idempotency {
  const key = `${symbol.toUpperCase()}@${candleTime}`;
  return { scope: SIGNAL_ENGINE_ACTOR, key, requestHash: key };
}

/** The id a signal of `symbol` on the candle opened at `candleTime` gets (UUIDv5). */
export function signalIdFor(symbol: string, candleTime: string): string {
  return idempotentId(signalIdempotency(symbol, candleTime), 'signal');
}

export class SignalEngine {
  private running = false;
  private timerHandle: unknown;
  private round: Promise<void> | undefined;
  private readonly timer: Timer;
  private readonly coins: readonly Coin[];
  private rounds = 0;
  private evaluations = 0;
  private signalsGenerated = 0;
  private failures = 0;
  private lastCandleTime: string | null = null;
  private lastError: string | null = null;

  constructor(private readonly deps: SignalEngineDeps) {
    this.timer = deps.timer ?? realTimer;
    this.coins = deps.coins ?? coins;
  }

  /** Evaluates the last closed candles at once, then one round per candle until `stop`. Starting twice is harmless. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.deps.logger.info('signal engine started', { candleMinutes: SIGNAL_CANDLE_MINUTES });
    this.schedule(0);
  }

  /** Stops scheduling and waits for a round in flight, so nothing is issued after it resolves. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.timer.clear(this.timerHandle);
    this.timerHandle = undefined;
    await this.round;
    this.deps.logger.info('signal engine stopped', { rounds: this.rounds, signalsGenerated: this.signalsGenerated });
  }

  /** A round in flight, if any (tests wait on it). */
  idle(): Promise<void> {
    return this.round ?? Promise.resolve();
  }

  status(): SignalEngineStatus {
    return {
      name: 'signal-engine',
      running: this.running,
      candleMinutes: SIGNAL_CANDLE_MINUTES,
      rounds: this.rounds,
      evaluations: this.evaluations,
      signalsGenerated: this.signalsGenerated,
      failures: this.failures,
      lastCandleTime: this.lastCandleTime,
      lastError: this.lastError,
      ...(this.deps.strategies ? { strategies: this.deps.strategies.status() } : {}),
    };
  }

  /** Evaluates the last closed candle of every coin now. */
  async evaluateAll(): Promise<void> {
    this.rounds += 1;
    for (const coin of this.coins) {
      if (!this.running) return;
      await this.evaluateCoin(coin);
    }
  }

  private schedule(delayMs: number): void {
    this.timerHandle = this.timer.set(() => {
      this.timerHandle = undefined;
      this.round = this.evaluateAll().finally(() => {
        this.round = undefined;
        if (this.running) this.schedule(untilNextCandle(this.deps.clock().getTime()));
      });
    }, delayMs);
  }

  private async evaluateCoin(coin: Coin): Promise<void> {
    try {
      const series = await this.deps.marketData.candles(coin.id, SIGNAL_HISTORY_DAYS);
      const closed = closedCandles(series.candles, series.interval.minutes, this.deps.clock().getTime());
      const last = readingsOfLastCandle(closed);
      if (!last) return;
      const candleTime = new Date(last.candle.time).toISOString();
      const command: EvaluateSignal = {
        type: 'EvaluateSignal',
        data: { signalId: signalIdFor(coin.symbol, candleTime), symbol: coin.symbol, candleTime, readings: last.readings },
      };
      const idempotency = signalIdempotency(coin.symbol, candleTime);
      const result = await this.deps.handler.handle(signalDecider, signalsStreamId(coin.symbol), command, {
        actor: SIGNAL_ENGINE_ACTOR,
        correlationId: command.data.signalId,
        idempotency,
      });
      this.evaluations += 1;
      if (!result.replayed) this.signalsGenerated += result.events.length;
      if (this.lastCandleTime === null || candleTime > this.lastCandleTime) this.lastCandleTime = candleTime;
      // The strategies' evaluations count their own failures (a house signal written stands).
      if (this.deps.strategies) await this.deps.strategies.evaluateCoin(coin, closed);
    } catch (error) {
      this.failures += 1;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('signal evaluation failed; the next candle tries again', { coinId: coin.id, error: this.lastError });
    }
  }
}

/** From `nowMs` to the next candle boundary, plus the grace. */
export function untilNextCandle(nowMs: number): number {
  return (Math.floor(nowMs / CANDLE_MS) + 1) * CANDLE_MS - nowMs + EVALUATION_GRACE_MS;
}
