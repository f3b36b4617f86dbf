/**
 * bench:market: what the simulated market costs (domain/src/market/market-path.ts), side by side with
 * a baseline in the same run: folding a year of ready-made tick prices (6,307,200 numbers in a
 * Float64Array, one every 5 s) into 525,600 one-minute candles, the least any exact minute chart can
 * cost when it starts from ticks. The market must also draw those ticks (a ChaCha word and a table
 * lookup each, two of each for a coin other than bitcoin), so it costs a few times the baseline.
 *
 * Measured, each the median of several repetitions, wall and CPU time of this process (on a shared
 * machine the wall time includes waiting for a core; the load average is printed):
 * - a year of 1-minute candles of one coin (typed arrays), for bitcoin and for ether, cold (a new
 *   path: the market's clock since 2020 is computed first) and warm (the same path again);
 * - one price at a random tick of the past year, cold and warm;
 * - the 365-day chart (2-day candles) cold, and warm (all day summaries kept).
 * Prints milliseconds and ratios to the baseline. Asserts nothing; the bar of issue 17 (a year of
 * 1-minute candles under a second) is `npm run market:stats`'s to check.
 */
import os from 'node:os';
import { MarketPath, MINUTE_MS, SIMULATION_EPOCH_MS, TICKS_PER_MINUTE } from '../domain/src/market/market-path';
import { MarketSimulation } from '../domain/src/market/simulation';

const NOW = Date.UTC(2025, 5, 1, 12, 34);
const MINUTES = 365 * 24 * 60;
const FIRST_MINUTE = (NOW - SIMULATION_EPOCH_MS) / MINUTE_MS - MINUTES;
const key = (n: number) => Uint32Array.from([n, 0x5eed, 2, 3, 4, 5, 6, 7]);

interface Time {
  wall: number;
  cpu: number;
}

function time(fn: () => void): Time {
  const cpu = process.cpuUsage();
  const start = performance.now();
  fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

function median(xs: Time[]): Time {
  const pick = (f: (t: Time) => number) => [...xs].map(f).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { wall: pick((t) => t.wall), cpu: pick((t) => t.cpu) };
}

/** 525,600 minute candles from a year of ticks: the baseline. */
function baseline(ticks: Float64Array, out: Float64Array): number {
  for (let m = 0; m < MINUTES; m++) {
    const first = m * TICKS_PER_MINUTE;
    let high = ticks[first]!;
    let low = high;
    for (let k = first + 1; k < first + TICKS_PER_MINUTE; k++) {
      const p = ticks[k]!;
      if (p > high) high = p;
      else if (p < low) low = p;
    }
    out[4 * m] = ticks[first]!;
    out[4 * m + 1] = high;
    out[4 * m + 2] = low;
    out[4 * m + 3] = ticks[first + TICKS_PER_MINUTE - 1]!;
  }
  return out[0]!;
}

/** Deterministic "random" ticks of the past year. */
function randomTick(i: number): number {
  const fraction = ((i * 0.6180339887498949) % 1) * 0.999;
  return (FIRST_MINUTE + Math.floor(fraction * MINUTES)) * TICKS_PER_MINUTE + (i % TICKS_PER_MINUTE);
}

const ticks = new Float64Array(MINUTES * TICKS_PER_MINUTE).map((_, i) => 100 + Math.sin(i / 1000));
const out = new Float64Array(4 * MINUTES);
const reps = 5;
const coins = ['bitcoin', 'ethereum', 'solana', 'cardano', 'polkadot', 'uniswap', 'chainlink'] as const;

// Warm up the JIT on a key that is not measured.
new MarketPath(key(1)).minuteCandles('ethereum', FIRST_MINUTE, 30 * 1440);
baseline(ticks, out);

const baselineTime = median(Array.from({ length: reps }, () => time(() => baseline(ticks, out))));
const yearCold = (coin: 'bitcoin' | 'ethereum') => median(Array.from({ length: reps }, (_, i) => time(() => new MarketPath(key(100 + i)).minuteCandles(coin, FIRST_MINUTE, MINUTES))));
const yearWarm = (coin: 'bitcoin' | 'ethereum') => {
  const path = new MarketPath(key(150));
  path.minuteCandles(coin, FIRST_MINUTE, MINUTES);
  return median(Array.from({ length: reps }, () => time(() => path.minuteCandles(coin, FIRST_MINUTE, MINUTES))));
};
const rows: [string, Time][] = [['baseline: 6,307,200 ready-made ticks -> 525,600 minute candles', baselineTime]];
rows.push(['a year of BTC 1-minute candles, cold (new path)', yearCold('bitcoin')]);
rows.push(['a year of ETH 1-minute candles, cold (new path)', yearCold('ethereum')]);
rows.push(['a year of BTC 1-minute candles, warm', yearWarm('bitcoin')]);
rows.push(['a year of ETH 1-minute candles, warm', yearWarm('ethereum')]);
rows.push(['one price, random tick of the past year, cold', median(Array.from({ length: reps }, (_, i) => time(() => new MarketPath(key(200 + i)).price(coins[i]!, randomTick(i)))))]);
const warm = new MarketPath(key(250));
warm.price('ethereum', randomTick(0));
rows.push(['one price, random tick of the past year, warm', median(Array.from({ length: 50 }, (_, i) => time(() => warm.price('ethereum', randomTick(i + 1)))))]);
rows.push(['365-day chart (2d candles), cold', median(Array.from({ length: reps }, (_, i) => time(() => new MarketSimulation(key(300 + i)).chart(coins[i]!, 365, NOW))))]);
const chartSim = new MarketSimulation(key(350));
chartSim.chart('bitcoin', 365, NOW);
rows.push(['365-day chart (2d candles), warm', median(Array.from({ length: reps }, (_, i) => time(() => chartSim.chart('bitcoin', 365, NOW + i * 7 * MINUTE_MS))))]);

console.log(`bench:market (median of ${reps}; warm price: median of 50), load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
for (const [name, t] of rows) {
  console.log(`${name.padEnd(64)} ${t.wall.toFixed(3).padStart(9)} ms wall ${t.cpu.toFixed(1).padStart(7)} ms CPU  ${(t.wall / baselineTime.wall).toFixed(2).padStart(7)} x baseline`);
}
