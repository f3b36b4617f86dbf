/**
 * `npm run audit` against an embedded app's stores (PGlite): `verify` reports 0 differences on
 * healthy read models (exit 0), and reports a document corrupted in the live read model (exit 1),
 * naming the projection, the document and the field; a document deleted from the live read model is
 * reported missing. `stream` and `user --as-of` print redacted events and the rebuilt state; bad
 * arguments are usage errors. Then the program itself (`node --import tsx bin/audit.ts verify`) on a
 * PostgreSQL schema: exit 1 and the DIFFERENCE line for a corrupted document, exit 0 once repaired,
 * exit 2 for a usage error.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { PORTFOLIOS_PROJECTION, type PortfolioView } from '@papertrade/domain/trading/trading-view';
import { USERS_PROJECTION } from '@papertrade/domain/auth/user-view';
import { REDACTED } from '@papertrade/domain/audit/redaction';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { spawn } from 'node:child_process';
import { useHarness } from '../test/api-harness';
import { requireServices, POSTGRES_URL } from '../test/services';
import { dropSchema, uniqueSchema } from '../test/postgres';
import { createProjector, createRuntime } from './compose';
import { runAudit, UsageError } from './audit';

describe('npm run audit (embedded stores)', function () {
  this.timeout(120_000);
  const harness = useHarness();

  async function audit(...argv: string[]): Promise<{ status: number; lines: string[] }> {
    const lines: string[] = [];
    const rt = harness().rt;
    const status = await runAudit(argv, { eventStore: rt.infra.eventStore, readModels: rt.infra.readModels, marketData: rt.marketData, clock: rt.clock, out: (l) => lines.push(l) });
    return { status, lines };
  }

  let userId = '';
  before(async function () {
    const id = randomUUID().slice(0, 8);
    ({ userId } = await harness().signup({ email: `v.${id}@example.com`, username: `v_${id}` }));
    const at = new Date(Date.now() - 60_000);
    const handler = new CommandHandler(harness().rt.infra.eventStore, () => at);
    const command = { type: 'PlaceSimulatedTrade', data: { userId, tradeId: 'v1', symbol: 'ETH', side: 'BUY', amount: 0.25, price: 3000, source: { kind: 'MANUAL' } }, metadata: { now: at.toISOString() } } as PortfolioCommand;
    await handler.handle(portfolioDecider, portfolioStreamId(userId), command, { actor: 'test', correlationId: 'test' });
    await harness().projector.caughtUp();
  });

  it('verify: 0 differences and exit 0 when the read models match a rebuild', async function () {
    const { status, lines } = await audit('verify');
    expect(lines.at(-1)).to.equal('0 difference(s)');
    expect(lines.find((l) => l.startsWith(`${PORTFOLIOS_PROJECTION}:`))).to.match(/^portfolios: 1 rebuilt, 1 live, 0 difference/);
    expect(status).to.equal(0);
  });

  it('verify: a corrupted live document is reported with its field, exit 1; a deleted one as missing', async function () {
    const readModels = harness().rt.infra.readModels;
    const portfolios = await readModels.collection<PortfolioView>(PORTFOLIOS_PROJECTION);
    const original = (await portfolios.get(userId))!;
    // put keeps the stored position: the document looks current, only its content is wrong.
    await portfolios.put(userId, { ...original, cashMicros: original.cashMicros + 1 });
    try {
      const { status, lines } = await audit('verify');
      expect(status).to.equal(1);
      expect(lines.at(-1)).to.equal('1 difference(s)');
      const reported = lines.filter((l) => l.startsWith('DIFFERENCE '));
      expect(reported).to.have.length(1);
      expect(JSON.parse(reported[0]!.slice('DIFFERENCE '.length))).to.deep.equal({
        projection: PORTFOLIOS_PROJECTION,
        id: userId,
        kind: 'different',
        path: 'cashMicros',
        expected: original.cashMicros,
        actual: original.cashMicros + 1,
      });
    } finally {
      await portfolios.put(userId, original);
    }
    expect((await audit('verify')).status).to.equal(0);

    // A document the replay does not produce: the port cannot list ids, so it is counted, not named.
    await portfolios.put('nobody-at-all', { ...original, userId: 'nobody-at-all' });
    try {
      const { status, lines } = await audit('verify');
      expect(status).to.equal(1);
      expect(lines.filter((l) => l.startsWith('DIFFERENCE ')).map((l) => JSON.parse(l.slice(11)))).to.deep.equal([{ projection: PORTFOLIOS_PROJECTION, kind: 'extra', count: 1 }]);
    } finally {
      await portfolios.delete('nobody-at-all');
    }

    const users = await readModels.collection(USERS_PROJECTION);
    const stored = (await users.getWithPosition(userId))!;
    await users.delete(userId);
    try {
      const { status, lines } = await audit('verify');
      expect(status).to.equal(1);
      expect(lines.filter((l) => l.startsWith('DIFFERENCE ')).map((l) => JSON.parse(l.slice(11)))).to.deep.include.members([{ projection: USERS_PROJECTION, id: userId, kind: 'missing', expected: JSON.parse(JSON.stringify(stored.doc)) }]);
    } finally {
      await users.putIfNewer(userId, stored.doc, stored.position!);
    }
  });

  it('stream: prints the events with the password hash redacted; an unknown stream exits 1', async function () {
    const { status, lines } = await audit('stream', `user-${userId}`);
    expect(status).to.equal(0);
    const body = JSON.parse(lines.join('\n'));
    expect(body.events[0]).to.deep.include({ type: 'UserRegistered' });
    expect(body.events[0].data.passwordHash).to.equal(REDACTED);
    const raw = await harness().rt.infra.eventStore.readStream(`user-${userId}`);
    expect(lines.join('\n')).not.to.contain(raw[0]!.data.passwordHash as string);
    expect((await audit('stream', 'portfolio-nobody')).status).to.equal(1);
  });

  it('user --as-of: the timeline, portfolio and subscription as of then', async function () {
    const before = JSON.parse((await audit('user', userId, '--as-of', new Date(Date.now() - 120_000).toISOString())).lines.join('\n'));
    expect(before.timeline).to.deep.equal([]);
    expect(before.portfolio.opened).to.equal(false);
    const now = JSON.parse((await audit('user', userId, '--as-of', new Date().toISOString())).lines.join('\n'));
    expect(now.timeline.map((e: { type: string }) => e.type)).to.deep.equal(['PortfolioOpened', 'SimulatedTradePlaced']);
    expect(now.portfolio.state.positions[0]).to.include({ symbol: 'ETH', units: 25_000_000 });
    expect(now.subscription.state).to.include({ tier: 'FREE', status: 'ACTIVE' });
  });

  it('bad arguments are usage errors', async function () {
    for (const argv of [[], ['nonsense'], ['stream'], ['stream', 'a b'], ['stream', 'x', '--page-size', '100000'], ['user', 'u1'], ['user', 'u1', '--as-of', 'yesterday']]) {
      let error: unknown;
      await audit(...argv).catch((e: unknown) => (error = e));
      expect(error, argv.join(' ')).to.be.instanceOf(UsageError);
    }
  });
});

/** The program as `npm run audit --` runs it, with its exit status and output. */
function runProgram(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/audit.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run audit -- verify (the program, PostgreSQL)', function () {
  this.timeout(120_000);
  const schema = uniqueSchema('audit');
  const env = {
    ...process.env,
    EVENT_STORE: 'postgres',
    READ_STORE: 'postgres',
    BUS: 'memory',
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    JWT_SECRET: 'audit-secret-audit-secret-audit-secret!',
    MARKET_SEED: 'audit spec market seed',
    DEMO_SEED: 'off',
    LOG: 'off',
  };
  const userId = randomUUID();
  let original: PortfolioView;

  before(async function () {
    await requireServices(this, 'postgres');
    const rt = await createRuntime('test', { embedded: false, env });
    try {
      const at = new Date(Date.now() - 60_000);
      const command = { type: 'PlaceSimulatedTrade', data: { userId, tradeId: 'p1', symbol: 'BTC', side: 'BUY', amount: 0.01, price: 60_000, source: { kind: 'MANUAL' } }, metadata: { now: at.toISOString() } } as PortfolioCommand;
      await new CommandHandler(rt.infra.eventStore, () => at).handle(portfolioDecider, portfolioStreamId(userId), command, { actor: 'test', correlationId: 'test' });
      const projector = createProjector(rt);
      await projector.start();
      await projector.caughtUp();
      await projector.stop();
      const portfolios = await rt.infra.readModels.collection<PortfolioView>(PORTFOLIOS_PROJECTION);
      original = (await portfolios.get(userId))!;
      await portfolios.put(userId, { ...original, realisedPnlMicros: 42 });
    } finally {
      await rt.infra.close();
    }
  });
  after(async function () {
    await dropSchema(schema).catch(() => undefined);
  });

  it('exits 1 naming the corrupted document, 0 once it is repaired, 2 on a usage error', async function () {
    const corrupted = await runProgram(['verify'], env);
    expect(corrupted.stderr).to.equal('');
    expect(corrupted.status).to.equal(1);
    expect(corrupted.stdout).to.contain(`DIFFERENCE {"projection":"portfolios","id":"${userId}","kind":"different","path":"realisedPnlMicros","expected":0,"actual":42}`);
    expect(corrupted.stdout.trim().split('\n').at(-1)).to.equal('1 difference(s)');

    const rt = await createRuntime('test', { embedded: false, env });
    try {
      await (await rt.infra.readModels.collection<PortfolioView>(PORTFOLIOS_PROJECTION)).put(userId, original);
    } finally {
      await rt.infra.close();
    }
    const repaired = await runProgram(['verify'], env);
    expect(repaired.status).to.equal(0);
    expect(repaired.stdout.trim().split('\n').at(-1)).to.equal('0 difference(s)');

    const bad = await runProgram(['stream'], env);
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain('usage: npm run audit --');
  });
});
