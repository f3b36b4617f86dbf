/**
 * bench:market: what the simulated market costs (domain/src/market/simulation.ts), side by side with
 * a baseline in the same run: folding a year of ready-made minute prices (a Float64Array of 525,600)
 * into 365 daily candles, the least any exact daily chart can do when it starts from minutes.
 *
 * Measured, each the median of several repetitions:
 * - one price at a random minute of the past year, cold (a new MarketSimulation: the daily path since
 *   2020 is built first) and warm (same instance, another random minute: its hour's 60 minutes);
 * - the 365-day chart (2-day candles; 1-day candles are the same work) cold, and warm (all summaries kept).
 * Prints milliseconds and ratios to the baseline. Asserts nothing.
 */
import { MarketSimulation, MINUTE_MS } from '../domain/src/market/simulation';

const DAY_MS = 24 * 60 * MINUTE_MS;
const NOW = Date.UTC(2025, 5, 1, 12, 34, 56);
const MINUTES = 365 * 24 * 60;

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Deterministic "random" minutes of the past year. */
function randomMinute(i: number): number {
  const fraction = ((i * 0.6180339887498949) % 1) * 0.999;
  return NOW - Math.floor(fraction * MINUTES) * MINUTE_MS;
}

function baseline(prices: Float64Array): number {
  let checksum = 0;
  for (let d = 0; d < 365; d++) {
    let high = -Infinity;
    let low = Infinity;
    for (let j = d * 1440; j < (d + 1) * 1440; j++) {
      const p = prices[j]!;
      if (p > high) high = p;
      if (p < low) low = p;
    }
    checksum += high - low + prices[d * 1440]! + prices[d * 1440 + 1439]!;
  }
  return checksum;
}

const minutes = new Float64Array(MINUTES).map((_, i) => 100 + Math.sin(i / 1000));
const reps = 7;
const coins = ['bitcoin', 'ethereum', 'solana', 'cardano', 'polkadot', 'uniswap', 'chainlink'] as const;

// Warm up the JIT on a seed that is not measured.
new MarketSimulation(1).chart('bitcoin', 30, NOW);
baseline(minutes);

const baselineMs = median(Array.from({ length: reps }, () => time(() => baseline(minutes))));
const coldPrice = median(Array.from({ length: reps }, (_, i) => time(() => new MarketSimulation(100 + i).priceAt(coins[i]!, randomMinute(i)))));
const warmSim = new MarketSimulation(99);
warmSim.priceAt('ethereum', NOW);
const warmPrice = median(Array.from({ length: 50 }, (_, i) => time(() => warmSim.priceAt('ethereum', randomMinute(i + 1)))));
const coldChart = median(Array.from({ length: reps }, (_, i) => time(() => new MarketSimulation(200 + i).chart(coins[i]!, 365, NOW))));
const chartSim = new MarketSimulation(300);
chartSim.chart('bitcoin', 365, NOW);
const warmChart = median(Array.from({ length: reps }, (_, i) => time(() => chartSim.chart('bitcoin', 365, NOW + i * 7 * MINUTE_MS))));
const warmDaily = median(Array.from({ length: reps }, (_, i) => time(() => chartSim.candles('bitcoin', NOW - 365 * DAY_MS, NOW + i * MINUTE_MS, 1440))));

const rows: [string, number][] = [
  ['baseline: 525,600 minute prices -> 365 daily candles', baselineMs],
  ['one price, random minute of the past year, cold', coldPrice],
  ['one price, random minute of the past year, warm', warmPrice],
  ['365-day chart (2d candles), cold', coldChart],
  ['365-day chart (2d candles), warm', warmChart],
  ['365 daily candles, warm', warmDaily],
];
console.log(`bench:market (median of ${reps}; warm price: median of 50)`);
for (const [name, ms] of rows) console.log(`${name.padEnd(58)} ${ms.toFixed(3).padStart(9)} ms  ${(ms / baselineMs).toFixed(2).padStart(7)} x baseline`);
