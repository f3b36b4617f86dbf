/**
 * Two projectors processes on one PostgreSQL schema: one holds the projections' leases (session
 * advisory locks, platform/src/projections/lease.ts), the other waits. When the holder is killed
 * (SIGKILL, no clean shutdown), commands keep being accepted, the waiting projector takes the leases
 * over, projects what was appended before and after the kill exactly once, and its change notices
 * reach query-api's subscribers on NATS.
 *
 * How long a takeover takes: PostgreSQL frees a killed holder's advisory locks as soon as its
 * connection closes (the kernel closes it with the process), and the waiting projector tries for the
 * leases it lacks every 2 s (Projector.start). TAKEOVER_BOUND_MS is only how long a broken takeover
 * makes this suite wait before it fails, never an assertion about speed.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { NatsBus } from '@papertrade/platform/bus/nats-bus';
import { comparePositions, type Position } from '@papertrade/platform/event-store/position';
import { PUBLIC_STATS_ID, PUBLIC_STATS_PROJECTION, type PublicStatsView } from '@papertrade/domain/public-stats/public-stats-view';
import { USERS_PROJECTION } from '@papertrade/domain/auth/user-view';
import { projections } from '@papertrade/projectors/projections';
import { NATS_URL, requireServices } from './services';
import { dropSchema, uniqueSchema } from './postgres';
import { startService, type StartedService } from './app-process';
import { SchemaView, clusterEnv, sendJson } from './cluster-support';
import { waitUntil } from './wait';

const TAKEOVER_BOUND_MS = 15_000;
const PROJECTIONS = projections.map((p) => p.name).sort();
const LEASES = PROJECTIONS.map((name) => `projection:${name}`);
const PROCESS_NAMES = ['projectors-a', 'projectors-b'] as const;

interface Notice {
  projection: string;
  position: Position;
  generation: number;
  receivedAt: number;
}

describe('local cluster: a second projectors process takes over when the lease holder is killed (PostgreSQL + NATS)', function () {
  this.timeout(120_000);
  let schema: string;
  let view: SchemaView;
  let bus: NatsBus;
  const notices: Notice[] = [];
  const projectors: StartedService[] = [];
  const others: StartedService[] = [];
  let commandApi: string;
  let queryApi: string;
  let signups = 0;

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('takeover');
    // Sign-ups come from distinct addresses (trusted X-Forwarded-For) so a per-address limit never refuses them.
    const env = clusterEnv(schema, { TRUST_PROXY: '1' });
    // One after another: each creates the tables it needs if they are missing.
    // Each projectors process names its connections (PGAPPNAME), so the lease holders can be told apart.
    for (const name of PROCESS_NAMES) projectors.push(await startService('bin/start-service.ts', ['projectors'], { ...env, PGAPPNAME: name }));
    for (const service of ['command-api', 'query-api']) others.push(await startService('bin/start-service.ts', [service], env));
    [commandApi, queryApi] = others.map((s) => s.url) as [string, string];
    view = await SchemaView.open(schema);
    // The same subjects query-api listens to (its NATS_PREFIX is the schema).
    bus = await NatsBus.connect(NATS_URL, { prefix: schema, name: 'takeover-spec' });
    await bus.subscribe('projection.*.changed', (subject, payload) => {
      const { position, generation } = payload as { position: Position; generation: number };
      notices.push({ projection: subject.split('.')[1]!, position, generation, receivedAt: Date.now() });
    });
  });

  after(async function () {
    for (const p of [...others, ...projectors].reverse()) await p.stop();
    await bus?.close();
    await view?.close();
    if (schema) await dropSchema(schema);
  });

  /** The process holding each projection's lease, by the database's own lock table. */
  async function leaseHolders(): Promise<Array<string | undefined>> {
    const holders = await view.leaseHolders(LEASES);
    return LEASES.map((lease) => holders[lease]);
  }

  /** How far a projectors process says each projection it runs has got (its health check). */
  async function positions(service: StartedService): Promise<Record<string, Position | undefined>> {
    const res = await fetch(`${service.url}/api/health`);
    return ((await res.json()) as { positions: Record<string, Position> }).positions;
  }

  function signup(tag: string): Promise<{ status: number; userId: string; position: Position; email: string }> {
    const n = ++signups;
    const id = `${tag}${n}_${randomUUID().slice(0, 6)}`;
    const email = `${id}@example.com`;
    return sendJson(
      'POST',
      `${commandApi}/api/auth/signup`,
      { email, username: id, password: 'secret1', confirmPassword: 'secret1' },
      { 'x-forwarded-for': `198.51.100.${n}` },
    ).then((a) => ({ status: a.status, userId: String(a.body.userId), position: a.body.position as Position, email }));
  }

  const registeredIds = async () => (await view.allEvents()).filter((e) => e.type === 'UserRegistered').map((e) => String(e.data.userId));

  it('accepts commands throughout, and the survivor projects everything exactly once and notifies query-api', async function () {
    // One process holds every lease (the first started took them all; the second waits for them).
    const holderName = (await leaseHolders())[0];
    expect(await leaseHolders(), 'one holder for every projection').to.deep.equal(LEASES.map(() => holderName));
    const holderIndex = PROCESS_NAMES.indexOf(holderName as (typeof PROCESS_NAMES)[number]);
    expect(holderIndex, `a projectors process holds the leases (holder: ${holderName})`).to.be.at.least(0);
    const holder = projectors[holderIndex]!;
    const survivor = projectors[1 - holderIndex]!;
    const survivorName = PROCESS_NAMES[1 - holderIndex];

    // Projected by the holder before the kill.
    const before = await Promise.all(Array.from({ length: 5 }, () => signup('pre')));
    expect(before.map((s) => s.status)).to.deep.equal(Array(5).fill(201));
    const lastBefore = before.map((s) => s.position).sort(comparePositions).at(-1)!;
    const seen = await fetch(`${queryApi}/api/public/stats`, { headers: { 'x-min-position': lastBefore } });
    expect(seen.headers.get('x-position-reached')).to.equal('true');

    // A burst in flight while the holder dies: some of it appended (and perhaps projected) before
    // the kill, some after; then more commands with no projector running at all.
    const burst = Array.from({ length: 10 }, () => signup('mid'));
    await holder.kill();
    const killedAt = Date.now();
    const during = await Promise.all(burst);
    const after = await Promise.all(Array.from({ length: 5 }, () => signup('post')));
    expect([...during, ...after].map((s) => s.status), 'commands are accepted without a projector').to.deep.equal(Array(15).fill(201));
    const last = [...before, ...during, ...after].map((s) => s.position).sort(comparePositions).at(-1)!;

    // The survivor takes every lease over and reaches the last position.
    await waitUntil(async () => (await leaseHolders()).every((h) => h === survivorName), {
      timeoutMs: TAKEOVER_BOUND_MS,
      intervalMs: 100,
      message: `${survivorName} to take over the leases of ${PROJECTIONS.join(', ')}`,
    });
    await waitUntil(async () => {
      const reached = await positions(survivor);
      return PROJECTIONS.every((p) => comparePositions(reached[p], last) >= 0);
    }, { timeoutMs: TAKEOVER_BOUND_MS, intervalMs: 100, message: `${survivorName} to reach ${last}` });

    // Exactly once: one users document per registration, and the trader count
    // (a counter, which a second application of any event would push past the registrations).
    const registered = await registeredIds();
    expect(registered, 'every sign-up, and no admin in this cluster').to.have.length(20);
    const models = view.readModels;
    const stats = await (await models.collection<PublicStatsView>(PUBLIC_STATS_PROJECTION)).get(PUBLIC_STATS_ID);
    expect(stats?.traders, 'traders counted once each').to.equal(registered.length);
    const users = await models.collection(USERS_PROJECTION);
    expect(await users.count()).to.equal(registered.length);
    expect((await users.find()).map((u) => u.id).sort()).to.deep.equal([...registered].sort());
    // The survivor's change notices arrive on NATS under query-api's prefix, up to the last position.
    await waitUntil(
      () => PROJECTIONS.every((p) => notices.some((n) => n.projection === p && n.receivedAt >= killedAt && comparePositions(n.position, last) >= 0)),
      { timeoutMs: 5000, message: 'change notices from the survivor for every projection' },
    );
    const generations = new Set(notices.filter((n) => n.receivedAt >= killedAt).map((n) => n.generation));
    expect([...generations], 'the survivor writes the live generation, not a new one').to.deep.equal([1]);

    // query-api serves the survivor's work: read-your-writes at the last position (on its own this
    // does not prove the notices: query-api also polls the checkpoints while it waits), a sign-in
    // (whose profile comes from the users projection) and me for an account created after the kill.
    const fresh = await fetch(`${queryApi}/api/public/stats`, { headers: { 'x-min-position': last } });
    expect(fresh.headers.get('x-position-reached')).to.equal('true');
    expect(((await fresh.json()) as { traders: number }).traders).to.equal(registered.length);
    const newcomer = after[after.length - 1]!;
    const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: newcomer.email, password: 'secret1' }, { 'x-forwarded-for': '203.0.113.1' });
    expect(login.status).to.equal(200);
    const me = await fetch(`${queryApi}/api/auth/me`, { headers: { authorization: `Bearer ${String(login.body.token)}` } });
    expect(((await me.json()) as { id: string }).id).to.equal(newcomer.userId);
  });
});
