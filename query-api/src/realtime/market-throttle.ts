/**
 * Throttles market ticks per coin, so a socket gets at most one MARKET_UPDATE per coin per
 * `intervalMs` however fast ticks arrive (a feed misconfigured to tick every millisecond, or a
 * burst after a NATS reconnect, must not flood browsers).
 *
 * Leading and trailing edge: a tick for a coin that has not been sent for `intervalMs` goes out at
 * once (so the normal feed, a tick per coin every 5 s, adds no delay); ticks that arrive sooner are
 * coalesced, only the latest is kept, and it goes out when the interval since the last send has
 * passed. A coalesced tick is therefore delayed by at most `intervalMs`, and never lost for being
 * superseded: the newest price always arrives. `intervalMs` 0 sends every tick at once.
 */
import { performance } from 'node:perf_hooks';

/** At most one MARKET_UPDATE per coin per this many ms, per socket. */
export const MARKET_UPDATE_INTERVAL_MS = 250;

interface CoinState<T> {
  lastSentAt: number;
  pending: T | undefined;
  timer: NodeJS.Timeout | undefined;
}

export class MarketThrottle<T> {
  private readonly coins = new Map<string, CoinState<T>>();
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (tick: T) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new RangeError(`intervalMs must be 0 or more, got ${intervalMs}`);
  }

  /** `key` is the coin id: ticks of different coins never coalesce. */
  push(key: string, tick: T): void {
    if (this.stopped) return;
    let state = this.coins.get(key);
    if (!state) {
      state = { lastSentAt: Number.NEGATIVE_INFINITY, pending: undefined, timer: undefined };
      this.coins.set(key, state);
    }
    const sinceLast = this.now() - state.lastSentAt;
    if (state.timer === undefined && sinceLast >= this.intervalMs) {
      state.lastSentAt = this.now();
      this.send(tick);
      return;
    }
    state.pending = tick;
    if (state.timer === undefined) {
      const coin = state;
      coin.timer = setTimeout(() => this.flush(coin), Math.max(0, this.intervalMs - sinceLast));
    }
  }

  /** Drops whatever is pending; nothing is sent afterwards. */
  stop(): void {
    this.stopped = true;
    for (const state of this.coins.values()) clearTimeout(state.timer);
    this.coins.clear();
  }

  private flush(state: CoinState<T>): void {
    state.timer = undefined;
    const tick = state.pending;
    state.pending = undefined;
    if (tick === undefined || this.stopped) return;
    state.lastSentAt = this.now();
    this.send(tick);
  }
}
