/**
 * A walk-forward worker thread: evaluates the windows it is sent (domain/src/backtest/walk-forward.ts
 * evaluateWindow) on its own copy of the simulated market (the same key, so the same path), and
 * posts progress and the outcome back. One market per key is kept between windows: its caches are
 * what makes the next window's sets cheap.
 */
import { parentPort } from 'node:worker_threads';
import { simulationMarket } from '@papertrade/domain/backtest/market';
import type { BacktestMarket } from '@papertrade/domain/backtest/run-backtest';
import { evaluateWindow, type WindowJob } from '@papertrade/domain/backtest/walk-forward';
import { MarketSimulation } from '@papertrade/domain/market/simulation';

export interface ThreadRequest {
  id: number;
  key: number[];
  job: WindowJob;
}
export type ThreadReply =
  | { id: number; type: 'progress'; done: number }
  | { id: number; type: 'done'; outcome: ReturnType<typeof evaluateWindow> }
  | { id: number; type: 'error'; message: string };

const markets = new Map<string, BacktestMarket>();

parentPort?.on('message', (request: ThreadRequest) => {
  const port = parentPort!;
  try {
    const name = request.key.join(',');
    let market = markets.get(name);
    if (!market) {
      markets.clear();
      market = simulationMarket(new MarketSimulation(Uint32Array.from(request.key)));
      markets.set(name, market);
    }
    const outcome = evaluateWindow(request.job, market, (done) => port.postMessage({ id: request.id, type: 'progress', done } satisfies ThreadReply));
    port.postMessage({ id: request.id, type: 'done', outcome } satisfies ThreadReply, [outcome.oosTime.buffer as ArrayBuffer, outcome.oosEquity.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ id: request.id, type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies ThreadReply);
  }
});
