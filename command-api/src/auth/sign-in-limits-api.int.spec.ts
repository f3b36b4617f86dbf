/**
 * Sign-in right after sign-up, and the request limits, through HTTP in the embedded mode. Behind the
 * gateway (TRUST_PROXY) each request names its address in X-Forwarded-For, so one test plays the
 * owner and the stranger from different places.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useHarness } from '../../../test/api-harness';
import { MESSAGES } from '@papertrade/platform/auth/sign-in-limits';

const unique = () => randomUUID().slice(0, 8);
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('auth API: a sign-in right after a sign-up (embedded)', function () {
  this.timeout(120_000);
  const harness = useHarness();
  let h: ReturnType<typeof harness>;
  beforeEach(function () {
    h = harness();
  });

  it('200 back-to-back sign-up and sign-in pairs, without X-Min-Position: every sign-in and me succeeds', async function () {
    const failures: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = unique();
      const email = `pair.${id}@example.com`;
      const signup = await h.request('POST', '/api/auth/signup', { body: { email, username: `pair_${id}`, password: 'secret1', confirmPassword: 'secret1' } });
      const login = await h.request('POST', '/api/auth/login', { body: { email, password: 'secret1' } });
      const me = login.status === 200 ? await h.request('GET', '/api/auth/me', { token: login.body.token }) : undefined;
      if (signup.status !== 201 || login.status !== 200 || login.body.user.email !== email || me?.status !== 200 || me.body.email !== email) {
        failures.push(`${i}: sign-up ${signup.status}, sign-in ${login.status} ${JSON.stringify(login.body)}, me ${me?.status}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });
});

describe('auth API: a sign-in while the users projection is behind (embedded)', function () {
  this.timeout(60_000);
  const harness = useHarness();
  let h: ReturnType<typeof harness>;
  beforeEach(function () {
    h = harness();
  });

  async function signUpWhileStopped() {
    await h.projector.stop();
    const id = unique();
    const email = `late.${id}@example.com`;
    expect((await h.request('POST', '/api/auth/signup', { body: { email, username: `late_${id}`, password: 'secret1', confirmPassword: 'secret1' } })).status).to.equal(201);
    return email;
  }

  it('waits for the projection to show the account, then answers 200 with its profile', async function () {
    const email = await signUpWhileStopped();
    // The projector comes back only once the sign-in has found the view missing and started to wait.
    const readModels = h.rt.infra.readModels;
    const waitFor = readModels.waitFor.bind(readModels);
    let waited = false;
    readModels.waitFor = (...args) => {
      waited = true;
      void h.projector.start();
      return waitFor(...args);
    };
    try {
      const res = await h.request('POST', '/api/auth/login', { body: { email, password: 'secret1' } });
      expect(res.status).to.equal(200);
      expect(res.body.user.email).to.equal(email);
      expect(waited, 'the sign-in waited for the projection').to.equal(true);
    } finally {
      readModels.waitFor = waitFor;
    }
  });

  it('answers 503 with Retry-After when the projection does not get there in time, and does not count it as a failure', async function () {
    const email = await signUpWhileStopped();
    const late = await h.request('POST', '/api/auth/login', { body: { email, password: 'secret1' } });
    expect(late.status).to.equal(503);
    expect(late.headers.get('retry-after')).to.equal('1');
    expect(late.body.detail).to.match(/still being set up/);
    await h.projector.start();
    for (let i = 0; i < 4; i++) expect((await h.request('POST', '/api/auth/login', { body: { email, password: 'wrong-one' } })).status).to.equal(401);
    expect((await h.request('POST', '/api/auth/login', { body: { email, password: 'secret1' } })).status).to.equal(200);
  });
});

describe('auth API: request limits (embedded, behind the gateway)', function () {
  this.timeout(60_000);
  const harness = useHarness({ TRUST_PROXY: '1', SIGNUP_MAX_PER_IP: '3', LOGIN_MAX_ATTEMPTS_PER_IP: '20' });
  let h: ReturnType<typeof harness>;
  beforeEach(function () {
    h = harness();
  });

  async function account() {
    const id = unique();
    const email = `owner.${id}@example.com`;
    const res = await h.request('POST', '/api/auth/signup', { body: { email, username: `owner_${id}`, password: 'secret1', confirmPassword: 'secret1' }, headers: from(`192.0.2.${Math.floor(Math.random() * 250)}`) });
    expect(res.status).to.equal(201);
    return email;
  }
  const login = (email: string, password: string, address: string) => h.request('POST', '/api/auth/login', { body: { email, password }, headers: from(address) });

  it("a stranger's five wrong passwords lock only the stranger out; the owner signs in from another address", async function () {
    const email = await account();
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong-one', '198.51.100.7')).status).to.equal(401);
    const stranger = await login(email, 'secret1', '198.51.100.7');
    expect(stranger.status).to.equal(429);
    expect(stranger.body.detail).to.equal(MESSAGES.accountAndAddress);
    expect(Number(stranger.headers.get('retry-after'))).to.be.within(1, 15 * 60);
    const owner = await login(email, 'secret1', '203.0.113.9');
    expect(owner.status).to.equal(200);
    expect(owner.body.token).to.be.a('string');
  });

  it('a sign-in that succeeds clears its address of earlier failures', async function () {
    const email = await account();
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong-one', '203.0.113.10')).status).to.equal(401);
    expect((await login(email, 'secret1', '203.0.113.10')).status).to.equal(200);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong-one', '203.0.113.10')).status).to.equal(401);
    expect((await login(email, 'secret1', '203.0.113.10')).status).to.equal(200);
  });

  it('limits sign-ups per address, counting those refused for a taken email, and appends nothing past it', async function () {
    const address = '198.51.100.77';
    const taken = await account();
    const signup = (email: string) =>
      h.request('POST', '/api/auth/signup', { body: { email, username: `u_${unique()}`, password: 'secret1', confirmPassword: 'secret1' }, headers: from(address) });
    expect((await signup(taken)).status).to.equal(409);
    expect((await signup(`a.${unique()}@example.com`)).status).to.equal(201);
    expect((await signup(`b.${unique()}@example.com`)).status).to.equal(201);
    const events = await h.appendedBy(async () => {
      const refused = await signup(`c.${unique()}@example.com`);
      expect(refused.status).to.equal(429);
      expect(refused.body.detail).to.equal(MESSAGES.signups);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    });
    expect(events).to.deep.equal([]);
    // Another address is not affected.
    expect((await h.request('POST', '/api/auth/signup', { body: { email: `d.${unique()}@example.com`, username: `u_${unique()}`, password: 'secret1', confirmPassword: 'secret1' }, headers: from('198.51.100.78') })).status).to.equal(201);
  });

  it('a sign-up spends one of the address\'s sign-in attempts', async function () {
    const address = '198.51.100.90';
    // 20 attempts a minute: 2 sign-ups (400s: the body is wrong, but they were attempts) and 18 sign-ins pass, the 21st is refused.
    for (let i = 0; i < 2; i++) expect((await h.request('POST', '/api/auth/signup', { body: {}, headers: from(address) })).status).to.equal(400);
    for (let i = 0; i < 18; i++) expect((await login(`nobody.${i}@example.com`, 'whatever', address)).status).to.equal(401);
    const refused = await login('nobody@example.com', 'whatever', address);
    expect(refused.status).to.equal(429);
    expect(refused.body.detail).to.equal(MESSAGES.address);
  });
});
