/**
 * bench:ml (issue 19, DESIGN.md section 8): each model type trained on the simulated market's ETH
 * 5-minute candles (the candles a training job reads, workers/src/ml/training-candles.ts) over 30 and
 * 90 days ending at the same candle boundary, with its default parameters: training time (the fit
 * alone, wall and CPU of this process), the held-out accuracy, the majority-class baseline of the same
 * test candles, the 95 % Wilson interval and the verdict. Side by side in the same run, the floor: a
 * majority-class "model" (count the training labels, predict the majority) on the same split, whose
 * accuracy is by definition about the baseline and whose time is what any fit costs at least.
 *
 * The market is a forward process (issue 17: nothing known at a candle says where the next goes), so
 * the honest expectation is about 50 % and "no edge" for every type; a row saying "edge" here would
 * need explaining. A last row per type on synthetic candles with a known signal (the next return leans
 * against the last one, rho 0.3) shows the same pipeline does find an edge where there is one.
 *
 * `MARKET_SEED` chooses the market (a fixed bench seed by default); `ML_BENCH_AS_OF` (ISO) the data's
 * end (default: the last candle boundary now). Prints a table; asserts nothing.
 */
import os from 'node:os';
import { buildDataset } from '../domain/src/ml/dataset';
import { evaluate, percent, type Evaluation } from '../domain/src/ml/evaluation';
import { modelTypeIds, parametersOf, type ModelTypeId } from '../domain/src/ml/model-types';
import { trainingAsOf } from '../domain/src/ml/model';
import { syntheticCandleColumns } from '../domain/src/ml/synthetic-candles.fixtures';
import type { CandleColumnsInput } from '../domain/src/ml/features';
import { SimulatedMarketData } from '../platform/src/market/simulated-market-data';
import { trainModel } from '../workers/src/ml/trainers';
import { trainingCandles } from '../workers/src/ml/training-candles';

const SEED = process.env.MARKET_SEED ?? 'papertrade-bench-ml-seed';
const asOf = process.env.ML_BENCH_AS_OF ? trainingAsOf(Date.parse(process.env.ML_BENCH_AS_OF)) : trainingAsOf(Date.now());
const market = new SimulatedMarketData(SEED, () => new Date(asOf));

interface Row {
  data: string;
  model: string;
  trainRows: number;
  testRows: number;
  wallMs: number;
  cpuMs: number;
  e: Evaluation;
}

function majorityFloor(candles: CandleColumnsInput): { wallMs: number; cpuMs: number; e: Evaluation; trainRows: number } {
  const dataset = buildDataset(candles);
  const cpu = process.cpuUsage();
  const start = performance.now();
  let ones = 0;
  for (let i = 0; i < dataset.train.rows; i++) ones += dataset.train.y[i]!;
  const p = ones * 2 > dataset.train.rows ? 1 : 0;
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, e: evaluate(new Float64Array(dataset.test.rows).fill(p), dataset.test.y), trainRows: dataset.train.rows };
}

async function measure(data: string, candles: CandleColumnsInput, type: ModelTypeId): Promise<Row> {
  const cpu = process.cpuUsage();
  const run = await trainModel(candles, type, parametersOf(type, {}));
  const used = process.cpuUsage(cpu);
  return { data, model: type, trainRows: run.trainSamples, testRows: run.evaluation.testSamples, wallMs: run.trainingTimeMs, cpuMs: (used.user + used.system) / 1000, e: run.evaluation };
}

const pct = (f: number) => `${percent(f, 1).toFixed(1)}%`;
function print(rows: Row[]): void {
  const header = ['data', 'model', 'train rows', 'test rows', 'fit wall', 'run CPU', 'accuracy', 'baseline', '95% interval', 'verdict'];
  const lines = rows.map((r) => [r.data, r.model, String(r.trainRows), String(r.testRows), `${r.wallMs.toFixed(r.wallMs < 10 ? 2 : 0)} ms`, `${r.cpuMs.toFixed(0)} ms`, pct(r.e.accuracy), pct(r.e.baseline), `${pct(r.e.low)}–${pct(r.e.high)}`, r.e.verdict]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
}

async function main() {
  console.log(`bench:ml  node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; data up to ${new Date(asOf).toISOString()}; fit wall is the fit alone (trainers.ts), run CPU this process's CPU for the whole run (features, fit, scoring, serialising)`);
  const rows: Row[] = [];
  for (const days of [30, 90]) {
    const candles = trainingCandles(market.simulation, asOf, days);
    const label = `ETH 5m, ${days} d`;
    const floor = majorityFloor(candles);
    rows.push({ data: label, model: 'majority class (floor)', trainRows: floor.trainRows, testRows: floor.e.testSamples, wallMs: floor.wallMs, cpuMs: floor.cpuMs, e: floor.e });
    for (const type of modelTypeIds) rows.push(await measure(label, candles, type));
  }
  const signal = syntheticCandleColumns({ candles: 30 * 288, seed: 11, rho: 0.3 });
  for (const type of modelTypeIds) rows.push(await measure('synthetic signal, 30 d', signal, type));
  print(rows);
}

void main();
