/**
 * bench:strategies (issue 19): what the users' AI strategies cost the workers per candle, at two
 * sizes of the same population, side by side in one run on the embedded stores (PGlite, the projector
 * running): the strategy engine's round on one coin's closed candles (workers/src/strategies/
 * strategy-engine.ts: read the active strategies, evaluate each DISTINCT configuration once, issue
 * EvaluateStrategy on its signal stream), over the same consecutive ETH candles of the simulated market.
 *
 * Populations (technical strategies, the RSI rule; each configuration a different rsiPeriod, so not even
 * the RSI series is shared between them):
 *   1 user on the defaults                 (what one bot costs)
 *   1,000 users on the defaults            (one configuration: should cost about what one user does)
 *   1,000 users over 50 configurations     (20 users each: about 50 evaluations a candle)
 * The figures are milliseconds per candle round (median over the candles), evaluations per round, and
 * the ratios to the one-user round. The round's read of the active strategies is one query whose answer
 * grows with the users (1,000 small documents); the evaluations grow with the distinct configurations
 * only. Prints a table; asserts nothing. `STRATEGY_BENCH_CANDLES` (default 30) candles per population, after a warm-up round of as many.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { coinById } from '../domain/src/market/coins';
import { strategyStreamId } from '../domain/src/strategies/strategy';
import { strategyDecider } from '../domain/src/strategies/strategy.decider';
import { defaultConfiguration } from '../domain/src/strategies/strategy-catalogue';
import { closedCandles } from '../domain/src/signals/readings';
import { CommandHandler } from '../platform/src/commands/command-handler';
import { silentLogger } from '../platform/src/config/logger';
import { SimulatedMarketData } from '../platform/src/market/simulated-market-data';
import { StrategyEngine } from '../workers/src/strategies/strategy-engine';
import { startHarness } from '../test/api-harness';
import { median, runConcurrent } from './support/measure';

const CANDLES = Number(process.env.STRATEGY_BENCH_CANDLES ?? 30);
const USERS = 1000;
const CONFIGS = 50;

async function main() {
  const h = await startHarness();
  const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
  const now = () => new Date().toISOString();
  const meta = (actor: string) => ({ actor, correlationId: randomUUID() });
  const eth = coinById('ethereum');
  const end = Math.floor(Date.now() / 300_000) * 300_000;
  const market = new SimulatedMarketData('papertrade-bench-strategies-seed', () => new Date(end));
  const series = await market.candles(eth.id, 2);
  const all = closedCandles(series.candles, series.interval.minutes, end);
  const WINDOW = 288; // the signal engine's day of 5-minute candles

  async function setActive(users: string[], active: boolean, configuration = (_i: number) => defaultConfiguration('technical')) {
    await runConcurrent(users.length, 8, async (i) => {
      const userId = users[i]!;
      const stream = strategyStreamId(userId, 'rsi-technical');
      if (active) await handler.handle(strategyDecider, stream, { type: 'ConfigureStrategy', data: { userId, strategyId: 'rsi-technical', configuration: configuration(i) }, metadata: { now: now() } }, meta(userId));
      await handler.handle(strategyDecider, stream, { type: 'ToggleStrategy', data: { userId, strategyId: 'rsi-technical', active }, metadata: { now: now() } }, meta(userId));
    });
    await h.projector.caughtUp();
  }

  /** Rounds over CANDLES consecutive candles, starting at `offset` so each population meets fresh candles (every decider evaluates). */
  async function measure(label: string, offset: number) {
    const engine = new StrategyEngine({ readModels: h.rt.infra.readModels, handler, logger: silentLogger });
    const ms: number[] = [];
    for (let k = 0; k < CANDLES; k++) {
      const last = all.length - 1 - offset - (CANDLES - 1 - k);
      const window = all.slice(last - WINDOW + 1, last + 1);
      const start = performance.now();
      await engine.evaluateCoin(eth, window);
      ms.push(performance.now() - start);
    }
    const s = engine.status();
    return { label, ms: median(ms), evaluations: s.evaluations / CANDLES, served: s.strategiesServed / CANDLES, signals: s.signalsGenerated, failures: s.failures };
  }

  const one = [randomUUID()];
  const crowd = Array.from({ length: USERS - 1 }, () => randomUUID());
  const spread = Array.from({ length: USERS }, () => randomUUID());
  const rows = [];
  await setActive(one, true);
  await measure('warm-up (not shown)', 4 * CANDLES); // the JIT and the store's first reads
  rows.push(await measure('1 user, 1 configuration', 3 * CANDLES));
  await setActive(crowd, true);
  rows.push(await measure(`${USERS.toLocaleString('en')} users, 1 configuration`, 2 * CANDLES));
  await setActive([...one, ...crowd], false);
  await setActive(spread, true, (i) => ({ ...defaultConfiguration('technical'), rsiPeriod: 10 + (i % CONFIGS) }));
  rows.push(await measure(`${USERS.toLocaleString('en')} users, ${CONFIGS} configurations`, CANDLES));
  await setActive(spread, false);
  await setActive(one, true);
  rows.push(await measure('1 user, 1 configuration (again)', 0));

  const base = (rows[0]!.ms + rows[3]!.ms) / 2;
  console.log(`bench:strategies  ${CANDLES} ETH candles per population, load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores, PGlite`);
  console.log('population                        ms/round  evaluations/round  strategies served/round  signals  x one user');
  for (const r of rows) {
    console.log(`${r.label.padEnd(33)} ${r.ms.toFixed(2).padStart(8)}  ${r.evaluations.toFixed(1).padStart(17)}  ${r.served.toFixed(0).padStart(23)}  ${String(r.signals).padStart(7)}  ${(r.ms / base).toFixed(2).padStart(10)}${r.failures ? `  (${r.failures} failures)` : ''}`);
  }
  console.log(`ratio ${CONFIGS} configurations / 1 configuration at ${USERS} users: ${(rows[2]!.ms / rows[1]!.ms).toFixed(2)}`);
  await h.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
