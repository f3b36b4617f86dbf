/**
 * Candles for the trainers' specs and the bench: a seeded random walk (nothing to learn: every model
 * should score about the baseline, "no edge") or a walk whose next return leans against the last one
 * (r[t+1] = -rho x r[t] + noise: a known signal the features carry in return_1, so a model should
 * beat the baseline clearly, "edge"). Deterministic for a seed (mulberry32 + Box-Muller).
 */
import type { CandleColumnsInput } from './features';

export interface SyntheticOptions {
  candles: number;
  seed: number;
  /** Mean reversion of the next return on the last (0: a random walk). */
  rho?: number;
  /** Candle width in minutes (default 5). */
  minutes?: number;
  startMs?: number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticCandleColumns(options: SyntheticOptions): CandleColumnsInput & { open: Float64Array } {
  const { candles: n, seed, rho = 0, minutes = 5, startMs = Date.UTC(2026, 0, 1) } = options;
  const random = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const time = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let price = 3000;
  let last = 0;
  for (let i = 0; i < n; i++) {
    const r = -rho * last + 0.002 * normal();
    last = r;
    const next = price * Math.exp(r);
    time[i] = startMs + i * minutes * 60_000;
    open[i] = price;
    close[i] = next;
    high[i] = Math.max(price, next) * (1 + 0.0005 * random());
    low[i] = Math.min(price, next) * (1 - 0.0005 * random());
    volume[i] = 1000 * (0.5 + random());
    price = next;
  }
  return { time, open, high, low, close, volume };
}
