/**
 * When a bot order fills (DESIGN.md section 9): bot orders are timed by their signal, not by the wall
 * clock, so replaying the same signals gives the same fills.
 *
 * - The signal's time is its candle's close (candleTime + SIGNAL_CANDLE_MINUTES): the signal engine
 *   reads closed candles only, so that is the first moment its evidence existed. A signal recorded
 *   before its candle closed (a test or a bench appending signals by hand) is timed by when it was
 *   recorded instead: an order never waits for a candle that has not happened.
 * - The order is meant to fill at the first tick at or after the signal's time plus BOT_LATENCY_MS
 *   (2 s: the signal engine evaluates a second after the close, and the bot needs a moment more to
 *   decide). Ticks are 5 s apart (market-path.ts TICK_MS), so that is the tick 5 s after the close.
 * - A bot that handles the signal after that tick (a slow or restarted worker) cannot fill in the
 *   past: it fills at the live tick, the one at or before the moment it handles the signal, and the
 *   trade records the delay (`intendedAt`, `filledAt`, `delayMs`), which the backtest-versus-paper
 *   comparison names as the cause of any difference.
 * - A bot that handles the signal before its tick waits for it (the worker does; nothing fills at a
 *   tick that has not happened).
 */
import { parseTime } from '../../shared/time-memo';
import { SIGNAL_CANDLE_MINUTES } from '../../signals/contracts';
import { SIMULATION_EPOCH_MS, TICK_MS, tickAt, tickTime } from '../../market/market-path';

/** The fixed time from a signal to its order (see the module comment). */
export const BOT_LATENCY_MS = 2000;

/** When a signal on the candle opened at `candleTime` became known; `recordedAt` (its event's time) when earlier. */
export function signalTimeMs(candleTime: string, recordedAt?: string, candleMinutes = SIGNAL_CANDLE_MINUTES): number {
  const close = parseTime(candleTime) + candleMinutes * 60_000;
  const recorded = recordedAt === undefined ? Number.NaN : Date.parse(recordedAt);
  return Number.isFinite(recorded) && recorded < close ? recorded : close;
}

/** The first tick at or after `timeMs`, its time in ms. */
export function tickAtOrAfter(timeMs: number): number {
  return tickTime(Math.max(0, Math.ceil((timeMs - SIMULATION_EPOCH_MS) / TICK_MS)));
}

/** The time of the tick a bot order on a signal known at `signalMs` is meant to fill at. */
export function intendedFillMs(signalMs: number): number {
  return tickAtOrAfter(signalMs + BOT_LATENCY_MS);
}

/**
 * When the order fills if the bot handles it at `nowMs`: its intended tick, or the live tick (the one
 * at or before now) when that has passed. A result after `nowMs` means: wait until then.
 */
export function fillTimeMs(intendedMs: number, nowMs: number): number {
  return Math.max(intendedMs, tickTime(tickAt(nowMs)));
}
