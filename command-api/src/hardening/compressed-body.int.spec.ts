/**
 * A body declared as gzip or deflate that is not valid compressed data, on every command-api route
 * that reads a JSON body (found from the routers themselves, so a new route is covered) and on the
 * Stripe webhook, which reads its raw body: a 400 problem, nothing appended. It was a 500 on every
 * JSON route, sign-in included. The details (every encoding, the zip bomb, nothing logged at error
 * level) are in platform/src/http/body-encoding.int.spec.ts.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { jsonBody } from '@papertrade/platform/http/body';
import { commandApiDeps } from '../../../bin/compose';
import { startHarness, type Harness } from '../../../test/api-harness';
import { commandApiRouters } from '../app';
import { WEBHOOK_PATH } from '../subscription/stripe-webhook-routes';

describe('bad compressed request bodies (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  let token: string;

  before(async function () {
    h = await startHarness({ STRIPE_WEBHOOK_SECRET: 'whsec_compressed_body_spec' });
    const admin = await h.admin();
    // Premium too, so that every guard in front of a body lets the request through to it.
    const premium = await h.request('PUT', `/api/admin/users/${admin.id}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(premium.status).to.equal(200);
    await h.projector.caughtUp();
    token = admin.token;
  });
  after(async function () {
    await h?.stop();
  });

  /** Sends `body` as it is (bytes), with the given headers. */
  async function send(method: string, path: string, body: Buffer, headers: Record<string, string>) {
    let status = 0;
    let problem: { detail?: string } = {};
    const events = await h.appendedBy(async () => {
      const res = await fetch(h.url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body });
      status = res.status;
      problem = (await res.json()) as { detail?: string };
    });
    return { status, problem, events };
  }

  const notGzip = Buffer.from('{"email":"a@example.com","password":"secret1"}');
  const cutShort = gzipSync('{"email":"a@example.com","password":"secret1"}').subarray(0, 16);

  it('answers 400 on every JSON route, sign-in and sign-up included, appending nothing', async function () {
    const routes: Array<[string, string]> = [];
    for (const router of commandApiRouters(commandApiDeps(h.rt))) {
      for (const layer of router.stack) {
        if (!layer.stack.includes(jsonBody)) continue;
        for (const method of layer.methods) if (method !== 'HEAD') routes.push([method, String(layer.path).replace(/:[A-Za-z]+/g, randomUUID())]);
      }
    }
    expect(routes.map(([m, p]) => `${m} ${p}`)).to.include.members(['POST /api/auth/login', 'POST /api/auth/signup', 'POST /api/trades']);
    for (const [method, path] of routes) {
      for (const [encoding, body] of [
        ['gzip', notGzip],
        ['deflate', notGzip],
        ['gzip', cutShort],
      ] as const) {
        const headers: Record<string, string> = { 'content-encoding': encoding };
        if (!path.startsWith('/api/auth/')) headers.authorization = `Bearer ${token}`;
        const { status, problem, events } = await send(method, path, body, headers);
        expect(status, `${method} ${path} (${encoding})`).to.equal(400);
        expect(problem.detail).to.equal(`The request body is not valid ${encoding} data (Content-Encoding: ${encoding})`);
        expect(events).to.deep.equal([]);
      }
    }
  });

  it('answers 400 on the Stripe webhook (raw body: compressed bytes are not what Stripe signed), appending nothing', async function () {
    const { status, problem, events } = await send('POST', WEBHOOK_PATH, cutShort, { 'content-encoding': 'gzip', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` });
    expect(status).to.equal(400);
    expect(problem.detail).to.equal('Webhook signature verification failed');
    expect(events).to.deep.equal([]);
  });
});
