/**
 * Signals across the local cluster: the workers process (its signal engine) appends to PostgreSQL,
 * the projectors process projects, query-api (a third process) serves GET /api/signals. A second
 * workers process started over the same candles (a restart) adds no signal.
 */
import { expect } from 'chai';
import { coins } from '@papertrade/domain/market/coins';
import { signalsResponseSchema } from '@papertrade/domain/signals/contracts';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { requireServices } from './services';
import { dropSchema, postgresClient, uniqueSchema } from './postgres';
import { startService, type StartedService } from './app-process';
import { clusterEnv } from './cluster-support';
import { waitUntil } from './wait';

describe('local cluster: the signal engine in the workers process (PostgreSQL + NATS)', function () {
  this.timeout(120_000);
  let schema: string;
  const running: StartedService[] = [];
  let env: Record<string, string> = {};
  let events: SqlEventStore;

  const signalEvents = async () => (await events.readAll({ limit: 10_000 })).filter((e) => e.type === 'SignalGenerated');

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('signals');
    env = clusterEnv(schema);
    for (const service of ['projectors', 'query-api']) running.push(await startService('bin/start-service.ts', [service], env));
    events = await SqlEventStore.create(postgresClient(schema, 2), { schema });
  });

  after(async function () {
    for (const p of [...running].reverse()) await p.stop();
    await events?.close();
    if (schema) await dropSchema(schema);
  });

  it('signals every coin on start, served by query-api; a restarted worker adds nothing', async function () {
    const workers = await startService('bin/start-service.ts', ['workers'], env);
    running.push(workers);
    const body = await waitUntil(
      async () => {
        const parsed = signalsResponseSchema.parse(await (await fetch(`${running[1]!.url}/api/signals`)).json());
        // The list and the counts are two projections: wait for every coin in the list itself.
        return new Set(parsed.signals.map((s) => s.symbol)).size === coins.length ? parsed : undefined;
      },
      { timeoutMs: 60_000, message: 'a signal of every coin on query-api' },
    );
    expect(new Set(body.signals.map((s) => s.symbol))).to.deep.equal(new Set(coins.map((c) => c.symbol)));
    const health = (await (await fetch(`${workers.url}/api/health`)).json()) as { workers: Array<Record<string, unknown>> };
    const engine = health.workers.find((w) => w.name === 'signal-engine');
    expect(engine).to.include({ running: true, failures: 0 });
    expect(engine!.evaluations).to.be.at.least(coins.length);

    const before = await signalEvents();
    await workers.stop();
    running.pop();
    const restarted = await startService('bin/start-service.ts', ['workers'], env);
    running.push(restarted);
    const status = await waitUntil(
      async () => {
        const h = (await (await fetch(`${restarted.url}/api/health`)).json()) as { workers: Array<Record<string, unknown>> };
        const engine = h.workers.find((w) => w.name === 'signal-engine')!;
        return Number(engine.evaluations) >= coins.length ? engine : undefined;
      },
      { timeoutMs: 60_000, message: 'the restarted engine to evaluate every coin' },
    );
    // Within the same 5-minute candle the restart appends nothing; across a boundary only the new candle may.
    const after = await signalEvents();
    const added = after.slice(before.length);
    expect(after.slice(0, before.length)).to.deep.equal(before);
    expect(added.every((e) => !before.some((b) => b.data.symbol === e.data.symbol && b.data.candleTime === e.data.candleTime))).to.equal(true);
    expect(status.signalsGenerated).to.equal(added.length);
  });
});
