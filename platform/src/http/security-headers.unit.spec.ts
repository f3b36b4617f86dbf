/**
 * The security headers the apps send, and the three places that must agree with them: the one
 * inline script of the web build (its hash), and the nginx gateway's copy of the headers.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ROUTE_PRELOAD_LOADER } from '../../../web/config/route-preload-plugin';
import { CSP_DIRECTIVES, parseCsp, securityHeaders } from './security-headers';

const gatewayConf = fs.readFileSync(new URL('../../../deploy/nginx/gateway.conf', import.meta.url), 'utf8');

/** Not security headers: what every HTTP answer has. */
const GENERIC = new Set(['connection', 'content-length', 'content-type', 'date', 'keep-alive', 'cache-control']);

async function answer(app: Koa, path: string): Promise<Headers> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    await res.arrayBuffer();
    return res.headers;
  } finally {
    server.close();
  }
}

function appWith(route: (ctx: Koa.Context) => void): Koa {
  const app = new Koa();
  app.use(securityHeaders());
  app.use(async (ctx) => route(ctx));
  return app;
}

/** `add_header Name value always;` lines of one nginx block's text, as a lower-cased name -> value map. */
function addHeaders(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/^\s*add_header\s+(\S+)\s+(?:"([^"]*)"|(\S+))\s+always;/gm)) out[m[1]!.toLowerCase()] = m[2] ?? m[3]!;
  return out;
}

function securityOnly(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !GENERIC.has(name)));
}

describe('security headers', function () {
  it('allows the web build\'s inline route-preload loader by its sha-256, and no other inline script', function () {
    const hash = `'sha256-${createHash('sha256').update(ROUTE_PRELOAD_LOADER).digest('base64')}'`;
    expect(CSP_DIRECTIVES['script-src']).to.deep.equal(["'self'", hash]);
    expect(CSP_DIRECTIVES['script-src']).not.to.include("'unsafe-inline'");
    expect(CSP_DIRECTIVES['frame-ancestors']).to.deep.equal(["'none'"]);
  });

  it('sends the CSP, nosniff, DENY framing and no-referrer on every answer', async function () {
    for (const path of ['/api/plans', '/', '/assets/x.js']) {
      const headers = await answer(
        appWith((ctx) => void (ctx.body = 'x')),
        path,
      );
      expect(parseCsp(headers.get('content-security-policy') ?? ''), path).to.deep.equal(CSP_DIRECTIVES);
      expect(headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(headers.get('x-frame-options'), path).to.equal('DENY');
      expect(headers.get('referrer-policy'), path).to.equal('no-referrer');
      expect(headers.get('strict-transport-security'), path).to.equal(null);
    }
  });

  it('marks /api answers no-store unless the route chose its own caching, and leaves other paths alone', async function () {
    expect((await answer(appWith((ctx) => void (ctx.body = {})), '/api/auth/me')).get('cache-control')).to.equal('no-store');
    const chosen = appWith((ctx) => {
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.body = {};
    });
    expect((await answer(chosen, '/api/plans')).get('cache-control')).to.equal('public, max-age=60');
    expect((await answer(appWith((ctx) => void (ctx.body = 'x')), '/login')).get('cache-control')).to.equal(null);
    expect((await answer(appWith((ctx) => void (ctx.body = 'x')), '/api-docs')).get('cache-control')).to.equal(null);
  });

  it('is what the gateway sends too, in the server block and in the location that has headers of its own', async function () {
    const app = securityOnly(await answer(appWith((ctx) => void (ctx.body = 'x')), '/'));
    const serverBlock = gatewayConf.slice(gatewayConf.indexOf('server {'), gatewayConf.search(/^\s*location\s/m));
    const unavailable = gatewayConf.slice(gatewayConf.indexOf('location @api_unavailable'));
    for (const [name, block] of [
      ['server', serverBlock],
      ['@api_unavailable', unavailable],
    ] as const) {
      const gateway = addHeaders(block);
      const { 'retry-after': _retry, 'cache-control': _cache, ...security } = gateway;
      expect(Object.keys(security).sort(), name).to.deep.equal(Object.keys(app).sort());
      for (const [header, value] of Object.entries(app)) {
        if (header === 'content-security-policy') expect(parseCsp(security[header]!), name).to.deep.equal(parseCsp(value));
        else expect(security[header], `${name}: ${header}`).to.equal(value);
      }
    }
    // and the services' copies are dropped at the gateway, so an answer has one of each
    const hidden = [...serverBlock.matchAll(/proxy_hide_header\s+(\S+);/g)].map((m) => m[1]!.toLowerCase()).sort();
    expect(hidden).to.deep.equal(Object.keys(app).sort());
  });
});
