/**
 * Indicator bench: `npm run bench:indicators`.
 *
 * On the same one million closes (a deterministic random walk) and volumes, in the same run, closes/s
 * for each dashboard indicator computed three ways:
 *   - ours: domain/src/market/indicators, a Float64Array in, a Float64Array out;
 *   - technicalindicators: `X.calculate({ values })` on a plain array (its batch API);
 *   - trading-signals: one indicator object fed with `add(value)` per close, results kept in an array
 *     (its API is streaming only).
 * Indicators: sma 20, sma 50, ema 20, rsi 14, macd 12/26/9, and the volume level (ratio of volume to its
 * 20-candle SMA, classified HIGH/LOW/NORMAL; the packages have no such indicator, so their side is
 * their SMA of the volumes plus the same division and classification).
 * ema 20: ours and trading-signals seed with the first close (spec section 9), technicalindicators with
 * the SMA; macd: ours and technicalindicators seed with SMAs, trading-signals with the first value.
 * The work per close is the same either way, so the speeds compare; the unit specs compare the values.
 *
 * Input arrays are built once, untimed. For each indicator: one untimed warm-up run of each side, then
 * REPS samples per side with the order of the three sides rotated, a full garbage collection (untimed,
 * `--expose-gc`) before every sample; a side faster than SAMPLE_MS repeats its call within a sample.
 * The table shows medians, and the ratios ours / technicalindicators (goal: at least 10x) and
 * ours / trading-signals, of the medians and of the best samples. Nothing is asserted.
 * INDICATOR_BENCH_CLOSES and INDICATOR_BENCH_REPS override the counts.
 */
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import * as ti from 'technicalindicators';
import * as ts from 'trading-signals';
import { ema, macd, rsi, sma, volumeLevel, volumeRatio, type VolumeLevel } from '@papertrade/domain/market/indicators/index';
import { fmtCount, fmtMs, fmtRate, loadAverage, median, perSecond, ratio, table } from './support/measure';

const CLOSES = Number(process.env.INDICATOR_BENCH_CLOSES ?? 1_000_000);
const REPS = Number(process.env.INDICATOR_BENCH_REPS ?? 7);
/**
 * A sample lasts at least this long: on a loaded machine a 5 ms call is at the mercy of one scheduler
 * time slice, so a fast side repeats its call (at most MAX_INNER times) and the sample is the mean.
 */
const SAMPLE_MS = 100;
const MAX_INNER = 50;
const SEED = 20_260_101;

const log = (line = '') => process.stdout.write(`${line}\n`);

/** mulberry32: a small deterministic PRNG, so every run measures the same series. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A multiplicative random walk from 2000 (steps up to ±1%) and volumes around 1000 with spikes. */
function market(count: number): { closes: Float64Array; volumes: Float64Array } {
  const random = prng(SEED);
  const closes = new Float64Array(count);
  const volumes = new Float64Array(count);
  let price = 2000;
  for (let i = 0; i < count; i++) {
    price *= 1 + (random() - 0.5) * 0.02;
    closes[i] = price;
    volumes[i] = 1000 * (0.2 + random() * 1.2) * (random() < 0.02 ? 4 : 1);
  }
  return { closes, volumes };
}

/** Counts HIGH levels so the classification is not optimised away, and returns the count. */
function classify(ratios: ArrayLike<number>): number {
  let high = 0;
  for (let i = 0; i < ratios.length; i++) if (volumeLevel(ratios[i]!) === ('HIGH' satisfies VolumeLevel)) high++;
  return high;
}

/** Runs a trading-signals indicator over `values`, keeping each result (NaN before it has one). */
function streamNumbers(indicator: { add(value: number): number | null }, values: readonly number[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = indicator.add(values[i]!) ?? Number.NaN;
  return out;
}

interface Side {
  name: string;
  run: () => unknown;
}

interface Case {
  indicator: string;
  ours: () => unknown;
  ti: () => unknown;
  ts: () => unknown;
}

function cases(closes: Float64Array, volumes: Float64Array): Case[] {
  const values = Array.from(closes);
  const volumeValues = Array.from(volumes);
  return [
    {
      indicator: 'sma 20',
      ours: () => sma(closes, 20),
      ti: () => ti.SMA.calculate({ period: 20, values }),
      ts: () => streamNumbers(new ts.SMA(20), values),
    },
    {
      indicator: 'sma 50',
      ours: () => sma(closes, 50),
      ti: () => ti.SMA.calculate({ period: 50, values }),
      ts: () => streamNumbers(new ts.SMA(50), values),
    },
    {
      indicator: 'ema 20',
      ours: () => ema(closes, 20),
      ti: () => ti.EMA.calculate({ period: 20, values }),
      ts: () => streamNumbers(new ts.EMA(20), values),
    },
    {
      indicator: 'rsi 14',
      ours: () => rsi(closes, 14),
      ti: () => ti.RSI.calculate({ period: 14, values }),
      ts: () => streamNumbers(new ts.RSI(14), values),
    },
    {
      indicator: 'macd 12/26/9',
      ours: () => macd(closes),
      ti: () => ti.MACD.calculate({ values, fastPeriod: 12, slowPeriod: 26, signalPeriod: 9, SimpleMAOscillator: false, SimpleMASignal: false }),
      ts: () => {
        const indicator = new ts.MACD(new ts.EMA(12), new ts.EMA(26), new ts.EMA(9));
        const line = new Float64Array(values.length);
        const signal = new Float64Array(values.length);
        const histogram = new Float64Array(values.length);
        for (let i = 0; i < values.length; i++) {
          const r = indicator.add(values[i]!);
          line[i] = r?.macd ?? Number.NaN;
          signal[i] = r?.signal ?? Number.NaN;
          histogram[i] = r?.histogram ?? Number.NaN;
        }
        return { line, signal, histogram };
      },
    },
    {
      indicator: 'volume level',
      ours: () => classify(volumeRatio(volumes, 20)),
      ti: () => {
        const average = ti.SMA.calculate({ period: 20, values: volumeValues });
        const ratios = new Float64Array(average.length);
        for (let k = 0; k < average.length; k++) ratios[k] = average[k] === 0 ? Number.NaN : volumeValues[k + 19]! / average[k]!;
        return classify(ratios);
      },
      ts: () => {
        const average = streamNumbers(new ts.SMA(20), volumeValues);
        for (let i = 0; i < average.length; i++) average[i] = average[i] === 0 ? Number.NaN : volumeValues[i]! / average[i]!;
        return classify(average);
      },
    },
  ];
}

/** `global.gc` when node runs with --expose-gc (the npm script does), so one side's garbage is not collected on another's clock. */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Milliseconds of one call of `run`, averaged over `inner` calls timed together. */
function sample(run: () => unknown, inner: number): number {
  collectGarbage(); // untimed
  const start = performance.now();
  for (let k = 0; k < inner; k++) if (run() === undefined) throw new Error('a side returned nothing');
  return (performance.now() - start) / inner;
}

function main(): void {
  const runStart = performance.now();
  log('indicator bench');
  log(`  node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, load average ${loadAverage()}`);
  log(`  technicalindicators ${packageVersion('technicalindicators')}, trading-signals ${packageVersion('trading-signals')}`);
  const { closes, volumes } = market(CLOSES);
  log(`  ${fmtCount(CLOSES)} closes (random walk, seed ${SEED}); per side 1 warm-up run, then ${REPS} samples of at least ${SAMPLE_MS} ms`);
  log('  (a fast side repeats its call within a sample), order rotated, a full GC before each sample; medians and best');
  if (!(globalThis as { gc?: unknown }).gc) log('  (no --expose-gc: garbage from one side may be collected during another)');
  log();

  const rows: string[][] = [];
  const below: string[] = [];
  for (const c of cases(closes, volumes)) {
    const sides: Side[] = [
      { name: 'ours', run: c.ours },
      { name: 'technicalindicators', run: c.ti },
      { name: 'trading-signals', run: c.ts },
    ];
    // Warm-up, untimed in the results: it also sets how many calls make one sample.
    const inner = new Map(sides.map((side) => [side.name, Math.min(MAX_INNER, Math.max(1, Math.ceil(SAMPLE_MS / sample(side.run, 1))))]));
    const times = new Map<string, number[]>(sides.map((s) => [s.name, []]));
    for (let rep = 0; rep < REPS; rep++) {
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(rep + k) % sides.length]!;
        times.get(side.name)!.push(sample(side.run, inner.get(side.name)!));
      }
    }
    const rate = (name: string) => perSecond(CLOSES, median(times.get(name)!));
    const best = (name: string) => perSecond(CLOSES, Math.min(...times.get(name)!));
    const [ours, tiRate, tsRate] = [rate('ours'), rate('technicalindicators'), rate('trading-signals')];
    if (ours / tiRate < 10) below.push(`${c.indicator} ${ratio(ours, tiRate)}`);
    rows.push([
      c.indicator,
      fmtRate(ours),
      fmtMs(median(times.get('ours')!)),
      fmtRate(tiRate),
      fmtRate(tsRate),
      ratio(ours, tiRate),
      ratio(best('ours'), best('technicalindicators')),
      ratio(ours, tsRate),
      ratio(best('ours'), best('trading-signals')),
    ]);
    log(`  ${c.indicator}: ours x${inner.get('ours')} per sample`);
  }
  log();
  log(table(['indicator', 'ours closes/s', 'ours time', 'technicalindicators', 'trading-signals', 'ours / ti', '(best)', 'ours / ts', '(best)'], rows));
  log();
  log(below.length === 0 ? 'goal met: ours at least 10x technicalindicators (medians) on every indicator' : `below the 10x goal (medians): ${below.join(', ')}`);
  log(`whole run ${fmtMs(performance.now() - runStart)}, load average now ${loadAverage()}`);
}

/** A dependency's installed version, read from its package.json in the root node_modules. */
function packageVersion(name: string): string {
  try {
    const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '?';
  } catch {
    return '?';
  }
}

main();
