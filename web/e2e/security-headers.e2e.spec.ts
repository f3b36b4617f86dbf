/**
 * The built web app under its Content-Security-Policy, in real Chromium against the embedded app:
 * the headers on the HTML, the one inline script (route preload) allowed and run, no refusal while
 * pages load (useBrowserSuite fails any test that meets one), and no framing by another origin.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { CSP_DIRECTIVES, parseCsp } from '@papertrade/platform/http/security-headers';
import { ROUTE_PRELOAD_DATA_ID } from '../config/route-preload-plugin';
import { useBrowserSuite } from './support/browser';
import { repoRoot } from './support/web-build';

describe('web: security headers and the Content-Security-Policy (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();

  it('serves the HTML with the CSP, nosniff, DENY framing and no-referrer', async () => {
    const response = await suite.page.goto('/login');
    const headers = response!.headers();
    expect(parseCsp(headers['content-security-policy'] ?? '')).to.deep.equal(CSP_DIRECTIVES);
    expect(headers['x-content-type-options']).to.equal('nosniff');
    expect(headers['x-frame-options']).to.equal('DENY');
    expect(headers['referrer-policy']).to.equal('no-referrer');
  });

  for (const route of ['/login', '/signup', '/landing', '/', '/no-such-page']) {
    it(`runs the allowed inline route-preload script and loads ${route} without a refusal`, async () => {
      const { page } = suite;
      await page.goto(route);
      await page.locator('#root > *').first().waitFor();
      const { expected, preloaded } = await page.evaluate((id) => {
        const data = JSON.parse(document.getElementById(id)!.textContent!) as { base: string; routes: Record<string, string[]> };
        const key = location.pathname.replace(/\/+$/, '') || '/';
        const files = data.routes[key] ?? data.routes['*'] ?? [];
        const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"], link[rel="stylesheet"]')];
        return { expected: files.map((f) => data.base + f), preloaded: links.map((l) => new URL(l.href).pathname) };
      }, ROUTE_PRELOAD_DATA_ID);
      expect(expected, 'the build has a route hint for this path').to.not.be.empty;
      expect(preloaded).to.include.members(expected);
      expect(suite.cspViolations).to.deep.equal([]);
    });
  }

  it('cannot be framed by another origin (frame-ancestors \'none\')', async () => {
    const { page, app } = suite;
    const outsider = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><iframe id="victim" src="${app.url}/login"></iframe>`);
    });
    await new Promise<void>((resolve) => outsider.listen(0, '127.0.0.1', resolve));
    try {
      // localhost is another origin than 127.0.0.1 for the browser.
      await page.goto(`http://localhost:${(outsider.address() as AddressInfo).port}/`);
      const frame = await (await page.waitForSelector('#victim')).contentFrame();
      await page.waitForFunction(() => document.readyState === 'complete');
      const framedRoot = frame ? await frame.locator('#root').count().catch(() => 0) : 0;
      expect(framedRoot, 'the app rendered inside a foreign frame').to.equal(0);
      // The refusal is the point of this test, not a finding.
      suite.cspViolations.splice(0);
    } finally {
      await new Promise((r) => outsider.close(r));
    }
  });

  it('ships no bench page in the production build', async () => {
    expect(fs.existsSync(path.join(repoRoot, 'web', 'dist', 'bench', 'static-form.html'))).to.equal(false);
    const res = await fetch(`${suite.app.url}/bench/static-form.html`);
    expect(await res.text()).not.to.include('Static baseline');
  });
});
