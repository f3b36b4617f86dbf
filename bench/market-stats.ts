/**
 * npm run market:stats: the simulated market's stylized facts over a year of one seed, each printed
 * against its published band (domain/src/market/stylized-facts.ts) with PASS or FAIL, in one run;
 * and how long a year of one coin's 1-minute candles takes to generate (bar: under a second). Exits
 * 1 when a row fails.
 *
 *   npm run market:stats                       the default seed, the year from 2024-06-01
 *   npm run market:stats -- --seed <text>      another seed (16+ characters)
 *   npm run market:stats -- --seeds 10         ten seeds in turn, then how many passed each row
 *
 * The default seed is a public one for measuring (never a deployment's). Times are wall and CPU time
 * of this process; on a shared machine the wall time includes waiting for a core (the load average is
 * printed), so the bar is checked on CPU time.
 */
import os from 'node:os';
import { coins, type CoinId } from '../domain/src/market/coins';
import { MarketPath, MINUTE_MS, SIMULATION_EPOCH_MS, TICKS_PER_DAY, type CandleArrays } from '../domain/src/market/market-path';
import {
  absolute,
  annualisedVolatility,
  autocorrelation,
  correlation,
  everyNth,
  excessKurtosis,
  logReturns,
  STYLIZED_FACT_BANDS as BANDS,
  volumeByUtcHour,
  weekendToWeekdayVolume,
  within,
  type Band,
} from '../domain/src/market/stylized-facts';
import { marketKeyFromSeed } from '../platform/src/market/market-seed';

const DEFAULT_SEED = 'papertrade market:stats seed';
const YEAR_START_MS = Date.UTC(2024, 5, 1);
const DAYS = 365;
const MINUTES = DAYS * 1440;
const GENERATION_BAR_MS = 1000;

interface Row {
  name: string;
  value: number;
  shown: string;
  band: Band | { min: number; max: number; source: string };
  pass: boolean;
}

function row(name: string, value: number, band: Band, digits = 3): Row {
  return { name, value, shown: value.toFixed(digits), band, pass: within(value, band) };
}

function timed<T>(fn: () => T): { result: T; wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = fn();
  const used = process.cpuUsage(cpu);
  return { result, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

function dailyCloses(path: MarketPath, coinId: CoinId, firstDay: number): Float64Array {
  const closes = new Float64Array(DAYS + 1);
  // The close of day d is its last tick; closes[0] is the close of the day before the year.
  for (let d = 0; d <= DAYS; d++) closes[d] = path.price(coinId, (firstDay + d) * TICKS_PER_DAY - 1);
  return closes;
}

function measure(seed: string): Row[] {
  const key = marketKeyFromSeed(seed);
  const firstMinute = (YEAR_START_MS - SIMULATION_EPOCH_MS) / MINUTE_MS;
  const firstDay = firstMinute / 1440;

  // Generation time: a fresh path each (cold: the clock since the epoch is computed first).
  const btcRun = timed(() => new MarketPath(key).minuteCandles('bitcoin', firstMinute, MINUTES));
  const ethRun = timed(() => new MarketPath(key).minuteCandles('ethereum', firstMinute, MINUTES));
  const btc: CandleArrays = btcRun.result;

  const r = logReturns(btc.close);
  const hourly = logReturns(everyNth(btc.close, 60, 59));
  const absR = absolute(r);
  let worstRawAcf = 0;
  for (let lag = 1; lag <= 10; lag++) {
    const acf = autocorrelation(r, lag);
    if (Math.abs(acf) > Math.abs(worstRawAcf)) worstRawAcf = acf;
  }
  const byHour = volumeByUtcHour(btc.volume, btc.time[0]!);
  let peakHour = 0;
  let troughHour = 0;
  for (let h = 0; h < 24; h++) {
    if (byHour[h]! > byHour[peakHour]!) peakHour = h;
    if (byHour[h]! < byHour[troughHour]!) troughHour = h;
  }

  const rows: Row[] = [
    row('BTC 1-minute returns: excess kurtosis', excessKurtosis(r), BANDS.minuteKurtosis, 1),
    row('BTC hourly returns: excess kurtosis', excessKurtosis(hourly), BANDS.hourlyKurtosis, 1),
    row('BTC 1-minute returns: largest |autocorrelation|, lags 1-10', worstRawAcf, BANDS.minuteReturnAutocorrelation, 4),
    row('BTC |1-minute returns|: autocorrelation at lag 1', autocorrelation(absR, 1), BANDS.minuteAbsAutocorrelationLag1),
    row('BTC |1-minute returns|: autocorrelation at lag 60', autocorrelation(absR, 60), BANDS.minuteAbsAutocorrelationLag60),
    row(`BTC volume by UTC hour: peak (${peakHour}:00) / trough (${troughHour}:00)`, byHour[peakHour]! / byHour[troughHour]!, BANDS.intradayVolumePeakToTrough, 2),
    row('BTC volume by UTC hour: peak hour', peakHour, BANDS.intradayVolumePeakHour, 0),
    row('BTC volume: weekend / weekday (mean day)', weekendToWeekdayVolume(btc.volume, btc.time[0]!), BANDS.weekendToWeekdayVolume, 2),
  ];

  const path = new MarketPath(key);
  const btcDaily = logReturns(dailyCloses(path, 'bitcoin', firstDay));
  const btcVol = annualisedVolatility(btcDaily, 365);
  rows.push(row('BTC annualised volatility (daily returns)', btcVol, BANDS.btcAnnualVolatility, 3));
  for (const coin of coins) {
    if (coin.id === 'bitcoin') continue;
    const daily = logReturns(dailyCloses(path, coin.id, firstDay));
    rows.push(row(`${coin.symbol} daily returns: correlation with BTC`, correlation(daily, btcDaily), BANDS.dailyCorrelationWithBtc, 3));
    const vol = annualisedVolatility(daily, 365);
    rows.push(row(`${coin.symbol} annualised volatility, above BTC's`, vol, { min: btcVol, max: Infinity, source: 'others more volatile than BTC' }, 3));
  }
  for (const [symbol, run] of [['BTC', btcRun], ['ETH', ethRun]] as const) {
    const value = run.cpuMs;
    rows.push({
      name: `a year of ${symbol} 1-minute candles, fresh path: CPU ms (wall ${run.wallMs.toFixed(0)} ms)`,
      value,
      shown: value.toFixed(0),
      band: { min: 0, max: GENERATION_BAR_MS, source: 'issue 17: under a second' },
      pass: value < GENERATION_BAR_MS,
    });
  }
  return rows;
}

function bandText(band: Row['band']): string {
  const f = (x: number) => (Number.isFinite(x) ? String(Number(x.toFixed(3))) : x > 0 ? '∞' : '-∞');
  return `${f(band.min)} .. ${f(band.max)}`;
}

function print(rows: Row[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.name.padEnd(width)}  ${r.shown.padStart(8)}   band ${bandText(r.band)}`);
}

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const seeds = Number(argument('--seeds') ?? 1);
const seed = argument('--seed') ?? DEFAULT_SEED;
console.log(`market:stats: a year of 1-minute candles from ${new Date(YEAR_START_MS).toISOString().slice(0, 10)}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
if (seeds <= 1) {
  const rows = measure(seed);
  print(rows);
  const failed = rows.filter((r) => !r.pass).length;
  console.log(failed === 0 ? `all ${rows.length} rows within their bands` : `${failed} of ${rows.length} rows outside their bands`);
  process.exitCode = failed === 0 ? 0 : 1;
} else {
  const results = new Map<string, { passes: number; values: number[] }>();
  for (let i = 0; i < seeds; i++) {
    const rows = measure(`${seed} #${i}`);
    const failed = rows.filter((r) => !r.pass);
    console.log(`seed #${i}: ${rows.length - failed.length} of ${rows.length} rows pass${failed.length ? ` (failed: ${failed.map((r) => `${r.name} ${r.shown}`).join('; ')})` : ''}`);
    for (const r of rows) {
      const name = r.name.replace(/ \(.*\)/, '').replace(/\d+:00/g, 'h');
      const result = results.get(name) ?? { passes: 0, values: [] };
      result.passes += r.pass ? 1 : 0;
      result.values.push(r.value);
      results.set(name, result);
    }
  }
  const width = Math.max(...[...results.keys()].map((n) => n.length));
  console.log(`${'row'.padEnd(width)}  passed   min / median / max`);
  for (const [name, { passes, values }] of results) {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));
    console.log(`${name.padEnd(width)}  ${String(passes).padStart(3)}/${seeds}   ${f(sorted[0]!)} / ${f(sorted[Math.floor(sorted.length / 2)]!)} / ${f(sorted.at(-1)!)}`);
  }
}
