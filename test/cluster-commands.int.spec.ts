/**
 * Two command-api processes on one PostgreSQL schema take the same commands at the same time.
 * Uniqueness and idempotency must hold across processes, where no in-process lock can help: they
 * rest on the event store's optimistic concurrency and on the command helper's idempotent event ids.
 * Every check counts the events actually appended, read straight from the schema.
 *
 * Requests come from distinct addresses (X-Forwarded-For, trusted here as behind the gateway) so a
 * per-address sign-up limit cannot be what refuses them.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { reservationStream } from '@papertrade/command-api/auth/register-account';
import { requireServices } from './services';
import { dropSchema, uniqueSchema } from './postgres';
import { startService, type StartedService } from './app-process';
import { SchemaView, clusterEnv, sendJson, type JsonAnswer } from './cluster-support';
import { waitUntil } from './wait';

const CONCURRENT = 20;

describe('local cluster: two command-api processes take the same commands at once (PostgreSQL + NATS)', function () {
  this.timeout(120_000);
  let schema: string;
  let view: SchemaView;
  const running: StartedService[] = [];
  let commandApis: string[] = [];
  let queryApi: string;
  let adminToken: string;

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('cmds');
    const env = clusterEnv(schema, { TRUST_PROXY: '1', ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'boss-pass' });
    // One after another: each creates its tables if missing, and each command-api makes sure of the admin.
    for (const service of ['projectors', 'command-api', 'command-api', 'query-api']) running.push(await startService('bin/start-service.ts', [service], env));
    commandApis = running.slice(1, 3).map((s) => s.url);
    queryApi = running[3]!.url;
    view = await SchemaView.open(schema);
    // The admin signs in once the projectors have its account.
    adminToken = await waitUntil(
      async () => {
        const login = await sendJson('POST', `${commandApis[0]}/api/auth/login`, { email: 'boss@example.com', password: 'boss-pass' });
        return login.status === 200 ? String(login.body.token) : null;
      },
      { timeoutMs: 20_000, intervalMs: 100, message: 'the admin to sign in' },
    );
  });

  after(async function () {
    for (const p of running.reverse()) await p.stop();
    await view?.close();
    if (schema) await dropSchema(schema);
  });

  /** Sends request i to command-api i % 2, all at once, each from an address of its own. */
  function inParallel(count: number, send: (i: number, baseUrl: string, from: Record<string, string>) => Promise<JsonAnswer>): Promise<JsonAnswer[]> {
    return Promise.all(Array.from({ length: count }, (_, i) => send(i, commandApis[i % 2]!, { 'x-forwarded-for': `198.51.100.${i + 1}` })));
  }

  /** Who holds a reservation stream after these events (null: free or never reserved). */
  const holder = (events: RecordedEvent[], streamId: string) =>
    events
      .filter((e) => e.streamId === streamId)
      .reduce<unknown>((owner, e) => (e.type === 'NameReserved' ? e.data.ownerId : e.type === 'ReservationReleased' && e.data.ownerId === owner ? null : owner), null);
  const ofStream = (events: RecordedEvent[], prefix: string) => events.filter((e) => e.streamId.startsWith(prefix));
  const statuses = (answers: JsonAnswer[]) => answers.map((a) => a.status);

  it(`${CONCURRENT} identical sign-ups with one Idempotency-Key: all 201 with the same user, one registration appended`, async function () {
    const id = randomUUID().slice(0, 8);
    const body = { email: `same.${id}@example.com`, username: `same_${id}`, password: 'secret1', confirmPassword: 'secret1' };
    const key = `signup-${randomUUID()}`;
    const answers = await inParallel(CONCURRENT, (_i, url, from) => sendJson('POST', `${url}/api/auth/signup`, body, { ...from, 'idempotency-key': key }));

    expect(statuses(answers), JSON.stringify(answers.find((a) => a.status !== 201)?.body)).to.deep.equal(Array(CONCURRENT).fill(201));
    const userIds = new Set(answers.map((a) => a.body.userId));
    expect(userIds.size, 'one user id').to.equal(1);
    const [userId] = userIds;

    const events = (await view.allEvents()).filter((e) => e.metadata.idempotencyKey === key);
    expect(events.map((e) => e.type).sort()).to.deep.equal(['NameReserved', 'NameReserved', 'UserRegistered']);
    expect(ofStream(events, 'user-').map((e) => e.streamId)).to.deep.equal([`user-${String(userId)}`]);
    const all = await view.allEvents();
    expect(all.filter((e) => e.type === 'UserRegistered' && e.data.email === body.email)).to.have.length(1);
    expect(all.filter((e) => e.type === 'ReservationReleased' && e.data.ownerId === userId), 'nothing released').to.deep.equal([]);
    const positions = new Set(answers.map((a) => a.body.position));
    expect(positions.size, 'every answer names the same position').to.equal(1);
  });

  it(`${CONCURRENT} sign-ups of one email with different usernames: exactly one 201, the others 409, one user`, async function () {
    const id = randomUUID().slice(0, 8);
    const email = `race.${id}@example.com`;
    const answers = await inParallel(CONCURRENT, (i, url, from) =>
      sendJson('POST', `${url}/api/auth/signup`, { email, username: `race_${id}_${i}`, password: 'secret1', confirmPassword: 'secret1' }, from),
    );

    const created = answers.filter((a) => a.status === 201);
    expect(created, 'one winner').to.have.length(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(statuses(refused)).to.deep.equal(Array(CONCURRENT - 1).fill(409));
    for (const r of refused) expect(r.body.detail).to.equal('Email already registered');

    const winner = String(created[0]!.body.userId);
    const all = await view.allEvents();
    const registered = all.filter((e) => e.type === 'UserRegistered' && e.data.email === email);
    expect(registered.map((e) => e.streamId)).to.deep.equal([`user-${winner}`]);
    // The winner holds the email and its username; the losers hold nothing.
    expect(holder(all, reservationStream('email', email))).to.equal(winner);
    const winnerUsername = String(registered[0]!.data.username);
    for (let i = 0; i < CONCURRENT; i++) {
      const username = `race_${id}_${i}`;
      expect(holder(all, reservationStream('username', username)), username).to.equal(username === winnerUsername ? winner : null);
    }
  });

  it(`${CONCURRENT} identical admin edits with one Idempotency-Key: all 200, each change appended once`, async function () {
    const id = randomUUID().slice(0, 8);
    const signup = await sendJson('POST', `${commandApis[0]}/api/auth/signup`, { email: `edit.${id}@example.com`, username: `edit_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    expect(signup.status).to.equal(201);
    const userId = String(signup.body.userId);
    const key = `edit-${randomUUID()}`;
    const newEmail = `edited.${id}@example.com`;
    const body = { firstName: 'Concurrent', email: newEmail, subscriptionTier: 'PREMIUM' };
    const answers = await inParallel(CONCURRENT, (_i, url, from) =>
      sendJson('PUT', `${url}/api/admin/users/${userId}`, body, { ...from, authorization: `Bearer ${adminToken}`, 'idempotency-key': key }),
    );

    expect(statuses(answers), JSON.stringify(answers.find((a) => a.status !== 200)?.body)).to.deep.equal(Array(CONCURRENT).fill(200));
    const all = await view.allEvents();
    const changes = all.filter((e) => e.streamId === `user-${userId}` || e.streamId === `subscription-${userId}`).map((e) => e.type);
    expect(changes).to.deep.equal(['UserRegistered', 'UserProfileUpdated', 'SubscriptionChangedByAdmin']);
    const oldEmail = all.filter((e) => e.streamId === reservationStream('email', `edit.${id}@example.com`)).map((e) => e.type);
    expect(oldEmail, 'the old email reserved, then released once').to.deep.equal(['NameReserved', 'ReservationReleased']);
    const newEmailEvents = all.filter((e) => e.streamId === reservationStream('email', newEmail)).map((e) => e.type);
    expect(newEmailEvents, 'the new email reserved once').to.deep.equal(['NameReserved']);
    expect(holder(all, reservationStream('email', newEmail))).to.equal(userId);
  });

  it('200 sign-ups, each followed at once by a sign-in on the other process and me on query-api: no failure', async function () {
    const failures: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = randomUUID().slice(0, 8);
      const from = { 'x-forwarded-for': `203.0.113.${(i % 200) + 1}` };
      const email = `pair.${id}@example.com`;
      const signup = await sendJson('POST', `${commandApis[i % 2]}/api/auth/signup`, { email, username: `pair_${id}`, password: 'secret1', confirmPassword: 'secret1' }, from);
      const login = await sendJson('POST', `${commandApis[(i + 1) % 2]}/api/auth/login`, { email, password: 'secret1' }, from);
      const me = login.status === 200 ? await sendJson('GET', `${queryApi}/api/auth/me`, undefined, { authorization: `Bearer ${String(login.body.token)}` }) : undefined;
      if (signup.status !== 201 || login.status !== 200 || me?.status !== 200 || me.body.email !== email) {
        failures.push(`${i}: sign-up ${signup.status}, sign-in ${login.status} ${JSON.stringify(login.body)}, me ${me?.status}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('shares the sign-in limits: failures split across the processes lock that address out of the account on both', async function () {
    const id = randomUUID().slice(0, 8);
    const email = `locked.${id}@example.com`;
    expect((await sendJson('POST', `${commandApis[0]}/api/auth/signup`, { email, username: `locked_${id}`, password: 'secret1', confirmPassword: 'secret1' })).status).to.equal(201);
    const stranger = { 'x-forwarded-for': '198.51.100.250' };
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await sendJson('POST', `${commandApis[i % 2]}/api/auth/login`, { email, password: 'wrong-one' }, stranger)).status);
    expect(wrong).to.deep.equal([401, 401, 401, 401, 401]);
    for (const url of commandApis) {
      const locked = await sendJson('POST', `${url}/api/auth/login`, { email, password: 'secret1' }, stranger);
      expect(locked.status, url).to.equal(429);
    }
    const owner = await sendJson('POST', `${commandApis[1]}/api/auth/login`, { email, password: 'secret1' }, { 'x-forwarded-for': '203.0.113.250' });
    expect(owner.status).to.equal(200);
  });
});
