/**
 * The three trainers on synthetic candles (domain/src/ml/synthetic-candles.fixtures.ts): where the
 * next return leans against the last one (a known signal) each beats the majority baseline clearly,
 * verdict "edge"; on a random walk each lands near the baseline, verdict "no edge". The same seed
 * reproduces the figures and the stored model's digest; the stored model loads back and predicts the
 * same; candles after the data's end (asOf) change nothing of the held-out score.
 */
import { expect } from 'chai';
import type { Candle, CoinId } from '@papertrade/domain/market/coins';
import { parametersOf, modelTypeIds, type ModelTypeId } from '@papertrade/domain/ml/model-types';
import { syntheticCandleColumns } from '@papertrade/domain/ml/synthetic-candles.fixtures';
import { buildDataset } from '@papertrade/domain/ml/dataset';
import { loadModel, trainModel } from './trainers';
import { trainingCandles, type IntervalCandleSource } from './training-candles';

const CANDLES = 6000;
const quick = (type: ModelTypeId) => parametersOf(type, type === 'neural_network' ? { epochs: 5 } : type === 'gradient_boosting' ? { rounds: 40 } : {});

describe('model trainers (TensorFlow.js wasm, XGBoost wasm, exact logistic regression)', function () {
  this.timeout(120_000);
  const signal = syntheticCandleColumns({ candles: CANDLES, seed: 11, rho: 0.3 });
  const walk = syntheticCandleColumns({ candles: CANDLES, seed: 12 });

  for (const type of modelTypeIds) {
    describe(type, function () {
      it('a known signal: accuracy well above the baseline, verdict "edge"', async function () {
        const run = await trainModel(signal, type, quick(type));
        const e = run.evaluation;
        expect(e.verdict, JSON.stringify(e)).to.equal('edge');
        expect(e.accuracy - e.baseline, 'at least 5 points above the baseline').to.be.greaterThan(0.05);
        expect(e.low).to.be.greaterThan(e.baseline);
      });

      it('a random walk: near the baseline, verdict "no edge"', async function () {
        const run = await trainModel(walk, type, quick(type));
        const e = run.evaluation;
        expect(e.verdict, JSON.stringify(e)).to.equal('no edge');
        expect(Math.abs(e.accuracy - 0.5)).to.be.lessThan(0.04);
        expect(e.low).to.be.at.most(e.baseline);
      });

      it('deterministic: the same data and parameters give the same figures and digest; the stored model predicts the same', async function () {
        const a = await trainModel(signal, type, quick(type));
        const b = await trainModel(signal, type, quick(type));
        expect(b.evaluation).to.deep.equal(a.evaluation);
        expect(b.digest).to.equal(a.digest);
        const loaded = await loadModel(a.bytes);
        const test = buildDataset(signal).test;
        const again = await loaded.predict(test.x, test.rows);
        for (let i = 0; i < test.rows; i += 97) expect(again[i]).to.be.closeTo(a.testProbabilities[i]!, 1e-6);
      });
    });
  }

  it('another seed is another network (the seed is used)', async function () {
    const a = await trainModel(signal, 'neural_network', parametersOf('neural_network', { epochs: 2, seed: 1 }));
    const b = await trainModel(signal, 'neural_network', parametersOf('neural_network', { epochs: 2, seed: 2 }));
    expect(b.digest).not.to.equal(a.digest);
  });

  it('changing the future does not change the held-out score: candles after the data\'s end are never read', async function () {
    const minutes = 5;
    const start = Date.UTC(2026, 0, 1);
    const series = syntheticCandleColumns({ candles: 4000, seed: 21, rho: 0.2, startMs: start });
    const asOf = start + 3500 * minutes * 60_000;
    const source = (future: 'as is' | 'changed'): IntervalCandleSource => ({
      candles(_coin: CoinId, fromMs: number, toMs: number): Candle[] {
        const out: Candle[] = [];
        for (let i = 0; i < 4000; i++) {
          const time = series.time[i]!;
          if (time < Math.floor(fromMs / 300_000) * 300_000 || time > toMs) continue;
          const bump = future === 'changed' && time >= asOf ? 1.5 : 1;
          out.push({ time, open: series.open[i]! * bump, high: series.high[i]! * bump, low: series.low[i]! * bump, close: series.close[i]! * bump, volume: series.volume[i]! * bump });
        }
        return out;
      },
    });
    const days = 3500 / 288;
    const a = await trainModel(trainingCandles(source('as is'), asOf, days), 'logistic_regression', parametersOf('logistic_regression', {}));
    const b = await trainModel(trainingCandles(source('changed'), asOf, days), 'logistic_regression', parametersOf('logistic_regression', {}));
    expect(b.evaluation).to.deep.equal(a.evaluation);
    expect(b.digest).to.equal(a.digest);
  });
});
