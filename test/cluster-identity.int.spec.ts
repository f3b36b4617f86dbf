/**
 * The identity cache across processes (PostgreSQL + NATS): each query-api keeps who a user is in
 * memory (platform/src/auth/identity-cache.ts). When an admin changes a user's tier on command-api,
 * the user's next `me` on a query-api that had them cached must show it:
 *   - with the admin's position as X-Min-Position: at once (the request reads past the cache);
 *   - without it: as soon as the users change notice arrives over NATS, well before the entry's 2 s
 *     age limit;
 *   - on a query-api that never gets notices (another NATS prefix): within that 2 s limit.
 *
 * The notice case is proven, not timed: the cache entry is refreshed (X-Min-Position) just before the
 * change, so it cannot expire until 2 s after that; a new tier shown before then can only come from
 * the notice dropping the entry. On a machine too slow to get the change projected within those 2 s
 * nothing is proven, and the attempt is repeated.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { USERS_PROJECTION } from '@papertrade/domain/auth/user-view';
import type { Position } from '@papertrade/platform/event-store/position';
import { IDENTITY_MAX_AGE_MS } from '@papertrade/platform/auth/identity-cache';
import { requireServices } from './services';
import { dropSchema, uniqueSchema } from './postgres';
import { startService, type StartedService } from './app-process';
import { SchemaView, clusterEnv, sendJson } from './cluster-support';
import { waitUntil } from './wait';

type Tier = 'FREE' | 'PREMIUM';
const ATTEMPTS = 3;

describe('local cluster: who a user is, cached in each query-api, follows an admin change (PostgreSQL + NATS)', function () {
  this.timeout(180_000);
  let schema: string;
  let view: SchemaView;
  const running: StartedService[] = [];
  let commandApi: string;
  /** Two query-api processes on the same bus, and one that hears no notices. */
  let queryA: string;
  let queryB: string;
  let deaf: string;
  let adminToken: string;
  let userId: string;
  let userToken: string;
  let tier: Tier = 'FREE';
  let lastPosition: string;

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('ident');
    const env = clusterEnv(schema, { ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'boss-pass' });
    // One after another: each creates the tables it needs if they are missing.
    const start = async (service: string, extra: Record<string, string> = {}) => {
      const started = await startService('bin/start-service.ts', [service], { ...env, ...extra });
      running.push(started);
      return started.url;
    };
    await start('projectors');
    commandApi = await start('command-api');
    queryA = await start('query-api');
    queryB = await start('query-api');
    deaf = await start('query-api', { NATS_PREFIX: `${schema}_deaf` });
    view = await SchemaView.open(schema);

    adminToken = await waitUntil(
      async () => {
        const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: 'boss@example.com', password: 'boss-pass' });
        return login.status === 200 ? String(login.body.token) : null;
      },
      { timeoutMs: 20_000, intervalMs: 100, message: 'the admin to sign in' },
    );
    const id = randomUUID().slice(0, 8);
    const signup = await sendJson('POST', `${commandApi}/api/auth/signup`, { email: `id.${id}@example.com`, username: `id_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    expect(signup.status, JSON.stringify(signup.body)).to.equal(201);
    lastPosition = String(signup.body.position);
    const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: `id.${id}@example.com`, password: 'secret1' }, { 'x-min-position': lastPosition });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    userToken = String(login.body.token);
    userId = String((login.body.user as { id: string }).id);
  });

  after(async function () {
    for (const p of running.reverse()) await p.stop();
    await view?.close();
    if (schema) await dropSchema(schema);
  });

  /** The tier `me` answers on a query-api. */
  const tierOn = async (url: string, headers: Record<string, string> = {}): Promise<Tier> => {
    const res = await fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${userToken}`, ...headers } });
    const body = (await res.json()) as { subscriptionTier?: Tier; detail?: string };
    expect(res.status, body.detail).to.equal(200);
    return body.subscriptionTier!;
  };
  /** Makes sure `url` holds the user as of the last change, read now (X-Min-Position reads past the cache). */
  const refreshOn = async (url: string) => expect(await tierOn(url, { 'x-min-position': lastPosition })).to.equal(tier);
  /** The admin flips the user's tier on command-api; returns the position it answers. */
  const flipTier = async (): Promise<string> => {
    tier = tier === 'FREE' ? 'PREMIUM' : 'FREE';
    const put = await sendJson('PUT', `${commandApi}/api/admin/users/${userId}`, { subscriptionTier: tier }, { authorization: `Bearer ${adminToken}` });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    lastPosition = String(put.body.position);
    return lastPosition;
  };

  it('shows the change at once on the other query-api when asked with the admin position', async function () {
    await refreshOn(queryA);
    await refreshOn(queryB);
    const position = await flipTier();
    expect(await tierOn(queryB, { 'x-min-position': position })).to.equal(tier);
    expect(await tierOn(queryA, { 'x-min-position': position })).to.equal(tier);
  });

  it('shows the change without X-Min-Position as soon as the notice arrives, before the cached entry could expire', async function () {
    const attempts: string[] = [];
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const before = tier;
      const refreshedAt = Date.now();
      await refreshOn(queryB); // the entry is now at least as young as refreshedAt
      await flipTier();
      const after = tier;
      const shownAt = await waitUntil(async () => ((await tierOn(queryB)) === after ? Date.now() : null), {
        timeoutMs: 20_000,
        message: `query-api B to show ${after} (was ${before})`,
      });
      const age = shownAt - refreshedAt;
      if (age < IDENTITY_MAX_AGE_MS) return; // the entry was still young: only the notice can have dropped it
      attempts.push(`attempt ${attempt}: shown ${age} ms after the entry was read`);
    }
    expect.fail(`never shown while the cached entry was younger than ${IDENTITY_MAX_AGE_MS} ms (${attempts.join('; ')})`);
  });

  it('shows the change within 2 s on a query-api that never gets notices', async function () {
    const refreshedAt = Date.now();
    await refreshOn(deaf);
    const old = tier;
    const position = await flipTier();
    expect(await view.readModels.waitFor([USERS_PROJECTION], position as Position, 20_000), 'the projectors to apply the change').to.equal(true);
    const projectedAt = Date.now();
    // While its entry is young, it still answers the old tier: it hears no notice, and the cache is in play.
    const early = await tierOn(deaf);
    if (Date.now() < refreshedAt + IDENTITY_MAX_AGE_MS) expect(early, 'the deaf query-api answered from its cache').to.equal(old);
    // Any entry was read before the change was projected, so it is too old once 2 s have passed since.
    await waitUntil(() => Date.now() >= projectedAt + IDENTITY_MAX_AGE_MS, { timeoutMs: 5_000, message: 'the age limit to pass' });
    expect(await tierOn(deaf)).to.equal(tier);
  });
});
