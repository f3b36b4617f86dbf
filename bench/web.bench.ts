/**
 * Web bench: `npm run bench:web`.
 *
 * Prints, side by side from one run against the embedded app (test/app-process.ts, fresh data):
 *   1. the gzipped size of the initial JavaScript, i.e. what web/dist/index.html loads before any
 *      route chunk (its module script and modulepreloads), plus the initial CSS;
 *   2. the time from navigation to an interactive sign-in form at /login (the email input exists,
 *      is enabled, visible and focused), against the same time for a bare static HTML form
 *      (bench/static-form.html, at /bench/static-form.html) served by the same server, in headless
 *      Chromium. Each sample is a fresh browser context (cold HTTP cache); a second series reloads
 *      in the same context (warm cache). The order of app and baseline alternates; medians and the
 *      ratio are printed. Times are read inside the page (performance.now() since navigation start),
 *      so the harness' own latency is not counted.
 *
 *   3. the price chart with 2,000 candles against 200 (the ohlc answer replaced in the browser):
 *      the time from navigation to the drawn chart, and the hover latency, i.e. from a pointermove
 *      dispatched on the chart to the tooltip's DOM update (MutationObserver), median over
 *      CHART_HOVERS moves that each land on another candle. Hover only re-renders the crosshair and
 *      the tooltip, so the latency should not grow with the candle count.
 *
 * Builds web/dist first when it is missing or older than its sources. Nothing is asserted.
 * WEB_BENCH_RUNS overrides the number of samples per series (default 11).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { toOhlcCandle } from '@papertrade/domain/market/candle-label';
import { startApp } from '../test/app-process';
import { CHROMIUM_PATH } from '../test/services';
import { ensureWebBuilt, repoRoot } from '../web/e2e/support/web-build';
import { ROUTE_PRELOAD_DATA_ID } from '../web/config/route-preload-plugin';

const RUNS = Number(process.env.WEB_BENCH_RUNS ?? 11);
const WARMUP = 2;
const distDir = path.join(repoRoot, 'web', 'dist');
const APP_PATH = '/login';
const BASELINE_PATH = '/bench/static-form.html';

/** Records, inside the page, the first moment the sign-in form can be typed into. */
const READY_PROBE = `(() => {
  const check = () => {
    if (window.__formReadyAt !== undefined) return;
    const el = document.querySelector('input[type="email"]');
    if (el && !el.disabled && document.activeElement === el && el.getClientRects().length > 0) {
      window.__formReadyAt = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  document.addEventListener('focusin', check, true);
  document.addEventListener('DOMContentLoaded', check);
  window.addEventListener('load', check);
})();`;

const CHART_HOVERS = 200;

/** `count` hourly candles ending now, a wavy series (the shape does not matter, the count does). */
function benchCandles(count: number) {
  const HOUR_MS = 3_600_000;
  const start = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - (count - 1) * HOUR_MS;
  return Array.from({ length: count }, (_, i) => {
    const open = 2000 + 300 * Math.sin(i / 40) + 20 * Math.sin(i / 3);
    const close = open + 15 * Math.cos(i / 2);
    // As the server sends them (the client's contract requires timestamp and timeLabel).
    return toOhlcCandle({ time: start + i * HOUR_MS, open, close, high: Math.max(open, close) + 6, low: Math.min(open, close) - 6, volume: 1e6 + i }, 60);
  });
}

/** Navigation to a drawn chart of `count` candles, then the median hover latency (ms). */
async function chartSample(browser: Browser, baseUrl: string, count: number): Promise<{ drawMs: number; hoverMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const body = { coinId: 'ethereum', days: 7, interval: '1h', intervalMinutes: 60, candles: benchCandles(count) };
    await context.route('**/api/coins/ethereum/ohlc?days=7', (route) => route.fulfill({ json: body }));
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' });
    await page.locator('[data-testid="price-chart"][data-state="ready"] [data-testid="candle-chart-svg"]').waitFor({ timeout: 30_000 });
    const drawMs = await page.evaluate(() => performance.now());
    const hoverMs = await page.evaluate(`(async () => {
      const svg = document.querySelector('[data-testid="candle-chart-svg"]');
      const box = svg.getBoundingClientRect();
      const centres = [...document.querySelectorAll('[data-testid="candles"] > g.candle rect')].map((r) => { const b = r.getBoundingClientRect(); return b.x + b.width / 2; });
      const frame = svg.parentElement;
      const samples = [];
      for (let i = 0; i < ${CHART_HOVERS}; i++) {
        const x = centres[Math.floor((i * 7919) % centres.length)];
        const changed = new Promise((resolve) => {
          const observer = new MutationObserver(() => { observer.disconnect(); resolve(performance.now()); });
          observer.observe(frame, { subtree: true, childList: true, attributes: true, characterData: true });
        });
        const t0 = performance.now();
        svg.dispatchEvent(new PointerEvent('pointermove', { clientX: x, clientY: box.y + box.height / 2, bubbles: true }));
        samples.push((await changed) - t0);
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      }
      samples.sort((a, b) => a - b);
      return samples[Math.floor(samples.length / 2)];
    })()`);
    return { drawMs, hoverMs: Number(hoverMs) };
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The files the route-preload hint in index.html fetches for one path (web/config/route-preload-plugin.ts). */
function routeHintAssets(routePath: string): { js: string[]; css: string[] } {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const match = new RegExp(`<script type="application/json" id="${ROUTE_PRELOAD_DATA_ID}">(.*?)</script>`).exec(html);
  const data = match ? (JSON.parse(match[1]!) as { routes: Record<string, string[]> }) : undefined;
  const files: string[] = data?.routes[routePath] ?? [];
  return { js: files.filter((f) => f.endsWith('.js')), css: files.filter((f) => f.endsWith('.css')) };
}

function initialAssets(): { js: string[]; css: string[] } {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const js = [
    ...html.matchAll(/<script[^>]*\stype="module"[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*\srel="modulepreload"[^>]*\shref="([^"]+)"/g),
  ].map((m) => m[1]!);
  const css = [...html.matchAll(/<link[^>]*\srel="stylesheet"[^>]*\shref="([^"]+)"/g)].map((m) => m[1]!);
  return { js: [...new Set(js)], css: [...new Set(css)] };
}

function sizes(files: string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const body = fs.readFileSync(path.join(distDir, file.replace(/^\//, '')));
    raw += body.length;
    gzip += zlib.gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

async function timeToForm(context: BrowserContext, url: string, reuse?: { page: Awaited<ReturnType<BrowserContext['newPage']>> }) {
  const page = reuse?.page ?? (await context.newPage());
  await page.goto(url, { waitUntil: 'commit' });
  // A function, not a string: a string predicate is eval'ed in the page, which the CSP refuses.
  const handle = await page.waitForFunction(() => (globalThis as { __formReadyAt?: number }).__formReadyAt, undefined, { timeout: 30_000, polling: 50 });
  return { ms: Number(await handle.jsonValue()), page };
}

async function coldSample(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  await context.addInitScript(READY_PROBE);
  try {
    return (await timeToForm(context, url)).ms;
  } finally {
    await context.close();
  }
}

async function warmSeries(browser: Browser, url: string, runs: number): Promise<number[]> {
  const context = await browser.newContext();
  await context.addInitScript(READY_PROBE);
  try {
    const { page } = await timeToForm(context, url); // fills the cache
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) samples.push((await timeToForm(context, url, { page })).ms);
    return samples;
  } finally {
    await context.close();
  }
}

async function main() {
  ensureWebBuilt();
  const { js, css } = initialAssets();
  const jsSize = sizes(js);
  const cssSize = sizes(css);
  const loginRoute = routeHintAssets(APP_PATH);
  const loginJs = sizes(loginRoute.js);

  // The baseline page is no part of the production build: serve a copy of web/dist with it added.
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-web-bench-'));
  fs.cpSync(distDir, site, { recursive: true });
  fs.mkdirSync(path.join(site, 'bench'));
  fs.copyFileSync(path.join(repoRoot, 'bench', 'static-form.html'), path.join(site, 'bench', 'static-form.html'));
  const app = await startApp({ env: { WEB_DIST: site } });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const appUrl = `${app.url}${APP_PATH}`;
    const baselineUrl = `${app.url}${BASELINE_PATH}`;
    const probe = await fetch(baselineUrl);
    if (!probe.ok || !(await probe.text()).includes('type="email"')) throw new Error(`${BASELINE_PATH} is not served by the app`);

    for (let i = 0; i < WARMUP; i++) {
      await coldSample(browser, appUrl);
      await coldSample(browser, baselineUrl);
    }
    const cold = { app: [] as number[], baseline: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      // Alternate the order so neither side always runs on a warmer machine.
      if (i % 2 === 0) {
        cold.app.push(await coldSample(browser, appUrl));
        cold.baseline.push(await coldSample(browser, baselineUrl));
      } else {
        cold.baseline.push(await coldSample(browser, baselineUrl));
        cold.app.push(await coldSample(browser, appUrl));
      }
    }
    const warm = { app: await warmSeries(browser, appUrl, RUNS), baseline: await warmSeries(browser, baselineUrl, RUNS) };

    await chartSample(browser, app.url, 200); // warm-up
    const chart = { big: [] as Array<{ drawMs: number; hoverMs: number }>, small: [] as Array<{ drawMs: number; hoverMs: number }> };
    const chartRuns = Math.max(3, Math.ceil(RUNS / 3));
    for (let i = 0; i < chartRuns; i++) {
      chart.big.push(await chartSample(browser, app.url, 2000));
      chart.small.push(await chartSample(browser, app.url, 200));
    }

    const line = (label: string, series: { app: number[]; baseline: number[] }) => {
      const a = median(series.app);
      const b = median(series.baseline);
      return `  ${label.padEnd(22)} app ${a.toFixed(1).padStart(7)} ms   static ${b.toFixed(1).padStart(6)} ms   ratio ${(a / b).toFixed(2)}x`;
    };
    console.log('web bench (headless Chromium, embedded app on one machine)');
    console.log(`  initial JS (index.html: ${js.length} files)   ${kb(jsSize.gzip)} gzip   (${kb(jsSize.raw)} raw)`);
    console.log(`  initial CSS (${css.length} file)              ${kb(cssSize.gzip)} gzip   (${kb(cssSize.raw)} raw)`);
    console.log(`  + ${APP_PATH} route JS (${loginRoute.js.length} files, preloaded)  ${kb(loginJs.gzip)} gzip   (${kb(loginJs.raw)} raw)`);
    console.log(`  navigation -> interactive sign-in form (${APP_PATH} vs ${BASELINE_PATH}), median of ${RUNS}:`);
    console.log(line('cold cache', cold));
    console.log(line('warm cache (reload)', warm));
    const chartLine = (label: string, pick: (s: { drawMs: number; hoverMs: number }) => number, digits: number) => {
      const big = median(chart.big.map(pick));
      const small = median(chart.small.map(pick));
      return `  ${label.padEnd(22)} 2,000 candles ${big.toFixed(digits).padStart(7)} ms   200 candles ${small.toFixed(digits).padStart(6)} ms   ratio ${(big / small).toFixed(2)}x`;
    };
    console.log(`  price chart on / (ohlc answer replaced), median of ${chartRuns} page loads (hover: median of ${CHART_HOVERS} moves each):`);
    console.log(chartLine('navigation -> drawn', (s) => s.drawMs, 1));
    console.log(chartLine('hover -> tooltip', (s) => s.hoverMs, 2));
  } finally {
    await browser.close();
    await app.stop();
    fs.rmSync(site, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
