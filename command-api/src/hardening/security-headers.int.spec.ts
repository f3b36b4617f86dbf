/**
 * Security headers on real answers of the three apps: the embedded one (API and web app), and
 * command-api and query-api as the cluster runs them. The header values themselves are pinned in
 * platform/src/http/security-headers.unit.spec.ts; here: every app sends them, on every kind of answer.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { CSP_DIRECTIVES, parseCsp } from '@papertrade/platform/http/security-headers';
import { createQueryApi } from '@papertrade/query-api/app';
import { startHarness, type Harness } from '../../../test/api-harness';
import { commandApiDeps, queryApiDeps } from '../../../bin/compose';
import { createEmbeddedApp } from '../../../bin/embedded-app';
import { createCommandApi } from '../app';

function expectSecurityHeaders(headers: Headers, what: string) {
  expect(parseCsp(headers.get('content-security-policy') ?? ''), what).to.deep.equal(CSP_DIRECTIVES);
  expect(headers.get('x-content-type-options'), what).to.equal('nosniff');
  expect(headers.get('x-frame-options'), what).to.equal('DENY');
  expect(headers.get('referrer-policy'), what).to.equal('no-referrer');
}

async function serve(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('security headers (HTTP, embedded, command-api, query-api)', function () {
  this.timeout(60_000);
  let h: Harness;
  let email: string;
  before(async function () {
    h = await startHarness();
    const id = randomUUID().slice(0, 8);
    email = `hdr.${id}@example.com`;
    await h.signup({ email, username: `hdr_${id}` });
    await h.projector.caughtUp();
  });
  after(async function () {
    await h?.stop();
  });

  it('embedded: sign-up, sign-in and me answer with the headers and Cache-Control: no-store', async function () {
    const id = randomUUID().slice(0, 8);
    const signup = await h.request('POST', '/api/auth/signup', { body: { email: `hdr2.${id}@example.com`, username: `hdr2_${id}`, password: 'secret1', confirmPassword: 'secret1' } });
    expect(signup.status).to.equal(201);
    const login = await h.request('POST', '/api/auth/login', { body: { email, password: 'secret1' } });
    expect(login.status).to.equal(200);
    const me = await h.request('GET', '/api/auth/me', { token: login.body.token });
    expect(me.status).to.equal(200);
    for (const [what, res] of [
      ['signup', signup],
      ['login', login],
      ['me', me],
    ] as const) {
      expectSecurityHeaders(res.headers, what);
      expect(res.headers.get('cache-control'), what).to.equal('no-store');
    }
  });

  it('embedded: problem answers (400, 401, 404) carry them too', async function () {
    for (const [method, p, options] of [
      ['POST', '/api/auth/login', { raw: '{' }],
      ['GET', '/api/auth/me', {}],
      ['GET', '/api/nothing', {}],
    ] as const) {
      const res = await h.request(method, p, options);
      expect(res.status).to.be.within(400, 499);
      expectSecurityHeaders(res.headers, `${method} ${p}`);
      expect(res.headers.get('cache-control')).to.equal('no-store');
    }
  });

  it('embedded: the web app\'s HTML and assets carry them, and the HTML keeps its own no-cache', async function () {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc.js'), 'console.log(1)');
    const app = await serve(createEmbeddedApp(h.rt, { webDist: dist }));
    try {
      const page = await fetch(`${app.url}/login`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.include('text/html');
      expectSecurityHeaders(page.headers, 'index.html');
      expect(page.headers.get('cache-control')).to.equal('no-cache');
      const asset = await fetch(`${app.url}/assets/app-abc.js`);
      expect(asset.status).to.equal(200);
      expectSecurityHeaders(asset.headers, 'asset');
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('command-api and query-api on their own (cluster mode) send them on every answer', async function () {
    const command = await serve(createCommandApi(commandApiDeps(h.rt)));
    const query = await serve(createQueryApi(queryApiDeps(h.rt)));
    try {
      const login = await fetch(`${command.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'secret1' }) });
      expect(login.status).to.equal(200);
      const { token } = (await login.json()) as { token: string };
      expectSecurityHeaders(login.headers, 'command-api login');
      expect(login.headers.get('cache-control')).to.equal('no-store');
      const me = await fetch(`${query.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).to.equal(200);
      expectSecurityHeaders(me.headers, 'query-api me');
      expect(me.headers.get('cache-control')).to.equal('no-store');
      for (const [what, url] of [
        ['command-api health', `${command.url}/api/health`],
        ['query-api plans', `${query.url}/api/plans`],
        ['query-api 404', `${query.url}/api/nothing`],
      ]) {
        const res = await fetch(url!);
        expectSecurityHeaders(res.headers, what!);
      }
    } finally {
      await command.close();
      await query.close();
    }
  });
});
