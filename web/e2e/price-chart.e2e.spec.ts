/**
 * The dashboard's price chart panel in real Chromium against the embedded app (simulated market):
 * every timeframe draws the candles the server answered (the ladder's 40 to 300), colours, overlays,
 * support and resistance; the tooltip follows the mouse and the arrow keys with the candle's values
 * while the candle layer stays untouched; 2,000 candles; the history fallback and 'Failed to fetch
 * price data'; a 390 px wide screen. Screenshots in artifacts/screenshots/price-chart-*.png.
 */
import { expect } from 'chai';
import type { Page, Response, WebSocketRoute } from 'playwright-core';
import { sma } from '@papertrade/domain/market/indicators/sma';
import { ema } from '@papertrade/domain/market/indicators/ema';
import type { OhlcResponse } from '@papertrade/domain/market/contracts';
import { toOhlcCandle } from '@papertrade/domain/market/candle-label';
import { screenshot, useBrowserSuite } from './support/browser';

const TIMEFRAMES = [
  ['1H', 0.04],
  ['4H', 0.17],
  ['1D', 1],
  ['7D', 7],
  ['30D', 30],
] as const;
const UP = '#26a69a';
const DOWN = '#ef5350';
/** ETH trades far above $1, so the chart writes it with 2 decimals like every other dollar amount. */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

type Candle = OhlcResponse['candles'][number];

function isOhlc(response: Response, days: number): boolean {
  const url = new URL(response.url());
  return url.pathname === '/api/coins/ethereum/ohlc' && url.searchParams.get('days') === String(days);
}

describe('web: the price chart panel (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();
  let page: Page;

  /**
   * The page's socket, answered here instead of by the relay: the feed's ticks fold into the newest
   * candle, so a real feed would move the candles these tests compare with the server's answer. The
   * live-tick test sends its own MARKET_UPDATE through it.
   */
  let feed: Promise<WebSocketRoute>;

  beforeEach(async () => {
    ({ page } = suite);
    let opened!: (ws: WebSocketRoute) => void;
    feed = new Promise((resolve) => (opened = resolve));
    await page.routeWebSocket(/\/ws$/, (ws) => opened(ws));
  });

  const chart = () => page.getByTestId('price-chart');
  const candleGroups = () => page.locator('[data-testid="candles"] > g.candle');
  const tooltip = () => page.getByTestId('chart-tooltip');

  async function chartReady(days: number) {
    await page.locator(`[data-testid="price-chart"][data-state="ready"][data-days="${days}"]`).waitFor();
  }

  /** Opens the dashboard and answers the 7D candles it drew. */
  async function openDashboard(): Promise<Candle[]> {
    const answered = page.waitForResponse((r) => isOhlc(r, 7));
    await page.goto('/');
    const body = (await (await answered).json()) as OhlcResponse;
    await chartReady(7);
    return body.candles;
  }

  /** Focuses the chart (which shows the newest candle) and checks the tooltip's close. */
  async function expectTooltipAfterFocus(index: number, close: number) {
    await page.getByTestId('candle-chart').focus();
    await page.locator(`[data-testid="chart-tooltip"][data-index="${index}"]`).waitFor();
    expect(await tooltip().getByTestId('tooltip-close').textContent()).to.equal(usd.format(close));
  }

  /** The x of a candle's band centre and a y inside the plot, in page coordinates. */
  async function candlePoint(index: number): Promise<{ x: number; y: number }> {
    const box = await candleGroups().nth(index).locator('rect').boundingBox();
    const svg = await page.getByTestId('candle-chart-svg').boundingBox();
    expect(box, `candle ${index} is drawn`).to.not.equal(null);
    return { x: box!.x + box!.width / 2, y: svg!.y + svg!.height / 2 };
  }

  /**
   * Watches the candle layer from now on: DOM changes under it (a MutationObserver), and whether
   * React rendered it again. React keeps an element's current props object on the element (the
   * `__reactProps$` key) and replaces it whenever the element re-renders (new JSX, new object), even
   * when no attribute changes; so the same object after hovering means the layer was not rendered,
   * not merely that the DOM came out the same.
   */
  async function watchCandleLayer() {
    await page.evaluate(() => {
      const w = window as unknown as { __candleMutations: number; __candleProps: unknown[] };
      const layer = document.querySelector('[data-testid="candles"]')!;
      // (No named helper functions in here: the test's compiler would wrap them in a helper the page lacks.)
      w.__candleMutations = 0;
      w.__candleProps = [layer, layer.firstElementChild!, layer.lastElementChild!.querySelector('rect')!].map(
        (el) => (el as unknown as Record<string, unknown>)[Object.keys(el).find((k) => k.startsWith('__reactProps$'))!],
      );
      new MutationObserver((records) => {
        w.__candleMutations += records.length;
      }).observe(layer, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }
  /** DOM changes under the candle layer since `watchCandleLayer`, and how many of its elements React rendered again. */
  const candleLayerWork = () =>
    page.evaluate(() => {
      const w = window as unknown as { __candleMutations: number; __candleProps: unknown[] };
      const layer = document.querySelector('[data-testid="candles"]')!;
      const now = [layer, layer.firstElementChild!, layer.lastElementChild!.querySelector('rect')!].map(
        (el) => (el as unknown as Record<string, unknown>)[Object.keys(el).find((k) => k.startsWith('__reactProps$'))!],
      );
      return { mutations: w.__candleMutations, rerendered: now.filter((p, i) => p !== w.__candleProps[i]).length };
    });

  it('draws the candles the server answered for every timeframe, 7D first, with colours, overlays and levels', async () => {
    const first = await openDashboard();
    expect(await page.getByRole('button', { name: '7D' }).getAttribute('aria-pressed')).to.equal('true');
    await screenshot(page, 'price-chart-7d');

    const seen = new Map<number, Candle[]>([[7, first]]);
    // The default first (no click), then the others in the selector's order.
    for (const [label, days] of [TIMEFRAMES[3], ...TIMEFRAMES.filter(([l]) => l !== '7D')]) {
      if (!seen.has(days)) {
        const answered = page.waitForResponse((r) => isOhlc(r, days));
        await page.getByRole('button', { name: label, exact: true }).click();
        seen.set(days, ((await (await answered).json()) as OhlcResponse).candles);
        await chartReady(days);
      }
      const candles = seen.get(days)!;
      expect(await page.getByRole('button', { name: label, exact: true }).getAttribute('aria-pressed'), label).to.equal('true');
      expect(candles.length, `${label}: the server's ladder`).to.be.within(40, 300);
      expect(await candleGroups().count(), `${label}: one candle drawn per candle answered`).to.equal(candles.length);

      // Teal up, red down: each candle's body and wick.
      const drawn = await candleGroups().evaluateAll((groups) => groups.map((g) => [g.querySelector('rect')!.getAttribute('fill'), g.querySelector('line')!.getAttribute('stroke')]));
      expect(drawn).to.deep.equal(candles.map((c) => (c.close >= c.open ? [UP, UP] : [DOWN, DOWN])));

      // One <path> per overlay, each a single unbroken line.
      for (const overlay of ['sma20', 'sma50', 'ema20']) {
        const d = await page.getByTestId(`overlay-${overlay}`).getAttribute('d');
        expect(d, `${label} ${overlay}`).to.match(/^M[-\d.]+,[-\d.]+(L[-\d.]+,[-\d.]+)+$/);
      }
      expect(await page.locator('[data-testid="candle-chart-svg"] path').count()).to.equal(3);

      // Support and resistance 10 percent inside the high-low range.
      const low = Math.min(...candles.map((c) => c.low));
      const high = Math.max(...candles.map((c) => c.high));
      expect(Number(await page.getByTestId('support-line').getAttribute('data-price'))).to.be.closeTo(low + 0.1 * (high - low), 1e-9 * high);
      expect(Number(await page.getByTestId('resistance-line').getAttribute('data-price'))).to.be.closeTo(high - 0.1 * (high - low), 1e-9 * high);
    }
    // The range is kept while the dashboard stays open: back to 7D asks nothing new (cached 60 s).
    await page.getByRole('button', { name: '7D', exact: true }).click();
    await chartReady(7);
    expect(await candleGroups().count()).to.equal(first.length);
  });

  it('shows the tooltip of the nearest candle on hover and with the arrow keys; the candles are not redrawn', async () => {
    const candles = await openDashboard();
    const closes = Float64Array.from(candles, (c) => c.close);
    const sma20 = sma(closes, 20);
    const sma50 = sma(closes, 50);
    const ema20 = ema(closes, 20, 'first');
    await watchCandleLayer();

    async function expectTooltipFor(index: number) {
      await page.locator(`[data-testid="chart-tooltip"][data-index="${index}"]`).waitFor();
      const c = candles[index]!;
      expect(Number(await tooltip().getAttribute('data-time'))).to.equal(c.time);
      expect(await tooltip().getByTestId('tooltip-time').textContent()).to.match(/\d{4}/);
      expect(await tooltip().getByTestId('tooltip-open').textContent()).to.equal(usd.format(c.open));
      expect(await tooltip().getByTestId('tooltip-high').textContent()).to.equal(usd.format(c.high));
      expect(await tooltip().getByTestId('tooltip-low').textContent()).to.equal(usd.format(c.low));
      expect(await tooltip().getByTestId('tooltip-close').textContent()).to.equal(usd.format(c.close));
      expect(await tooltip().getByTestId('tooltip-volume').textContent()).to.match(/^\$[\d.]+[KMBT]?$/);
      const overlay = (values: Float64Array) => (Number.isNaN(values[index]!) ? '—' : usd.format(values[index]!));
      expect(await tooltip().getByTestId('tooltip-sma20').textContent()).to.equal(overlay(sma20));
      expect(await tooltip().getByTestId('tooltip-sma50').textContent()).to.equal(overlay(sma50));
      expect(await tooltip().getByTestId('tooltip-ema20').textContent()).to.equal(overlay(ema20));
    }

    const middle = Math.floor(candles.length / 2);
    const point = await candlePoint(middle);
    await page.mouse.move(point.x, point.y);
    await expectTooltipFor(middle);
    expect(await page.getByTestId('crosshair').getAttribute('data-index')).to.equal(String(middle));
    await screenshot(page, 'price-chart-tooltip');

    // Early candles: sma20 and sma50 are not defined yet and read as a dash.
    const early = await candlePoint(5);
    await page.mouse.move(early.x, early.y);
    await expectTooltipFor(5);
    expect(await tooltip().getByTestId('tooltip-sma20').textContent()).to.equal('—');

    const newest = await candlePoint(candles.length - 1);
    await page.mouse.move(newest.x, newest.y);
    await expectTooltipFor(candles.length - 1);

    // Leaving the chart hides the tooltip.
    await page.mouse.move(5, 5);
    await tooltip().waitFor({ state: 'detached' });

    // Keyboard: focus shows the newest candle, the arrows move one candle, Home goes to the first.
    await page.getByTestId('candle-chart').focus();
    await expectTooltipFor(candles.length - 1);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expectTooltipFor(candles.length - 3);
    await page.keyboard.press('ArrowRight');
    await expectTooltipFor(candles.length - 2);
    await page.keyboard.press('Home');
    await expectTooltipFor(0);
    expect(await page.getByTestId('chart-announcement').textContent()).to.equal(
      `${await tooltip().getByTestId('tooltip-time').textContent()}: open ${usd.format(candles[0]!.open)}, high ${usd.format(candles[0]!.high)}, low ${usd.format(candles[0]!.low)}, close ${usd.format(candles[0]!.close)}`,
    );
    await page.keyboard.press('Escape');
    await tooltip().waitFor({ state: 'detached' });

    expect(await candleLayerWork(), 'hover and keys only move the crosshair and the tooltip').to.deep.equal({ mutations: 0, rerendered: 0 });
  });

  it('moves the newest candle with a live tick from the feed, and leaves the others as answered', async () => {
    const candles = await openDashboard();
    const newest = candles.at(-1)!;
    await expectTooltipAfterFocus(candles.length - 1, newest.close);

    // A tick above the newest candle's high, inside its interval (the server's newest candle is the
    // one running now): its close and high become the tick's price.
    const price = Math.round(newest.high * 1.02 * 100) / 100;
    (await feed).send(JSON.stringify({ type: 'MARKET_UPDATE', data: { coinId: 'ethereum', symbol: 'ETH', price, changePercent24h: 1.5, at: new Date().toISOString() } }));
    await page.keyboard.press('End');
    await tooltip().getByTestId('tooltip-close').getByText(usd.format(price), { exact: true }).waitFor();
    expect(await tooltip().getByTestId('tooltip-high').textContent()).to.equal(usd.format(price));
    expect(await tooltip().getByTestId('tooltip-open').textContent()).to.equal(usd.format(newest.open));
    expect(await candleGroups().count(), 'a tick inside the interval starts no candle').to.equal(candles.length);
    // The candle before it is still the server's.
    await page.keyboard.press('ArrowLeft');
    expect(await tooltip().getByTestId('tooltip-close').textContent()).to.equal(usd.format(candles.at(-2)!.close));
  });

  it('draws 2,000 candles and hovers them without touching the candle layer', async () => {
    const HOUR_MS = 3_600_000;
    const start = Date.UTC(2026, 0, 1);
    const candles: Candle[] = Array.from({ length: 2000 }, (_, i) => {
      const open = 2000 + 300 * Math.sin(i / 40) + 20 * Math.sin(i / 3);
      const close = open + 15 * Math.cos(i / 2);
      return toOhlcCandle({ time: start + i * HOUR_MS, open, close, high: Math.max(open, close) + 6, low: Math.min(open, close) - 6, volume: 1e6 + i }, 60);
    });
    const body: OhlcResponse = { coinId: 'ethereum', days: 7, interval: '1h', intervalMinutes: 60, candles };
    await page.route('**/api/coins/ethereum/ohlc?days=7', (route) => route.fulfill({ json: body }));
    await page.goto('/');
    await chartReady(7);
    expect(await candleGroups().count()).to.equal(2000);
    for (const overlay of ['sma20', 'sma50', 'ema20']) expect(await page.getByTestId(`overlay-${overlay}`).count()).to.equal(1);
    await watchCandleLayer();

    const svg = (await page.getByTestId('candle-chart-svg').boundingBox())!;
    for (let step = 0; step <= 40; step++) {
      await page.mouse.move(svg.x + 20 + ((svg.width - 90) * step) / 40, svg.y + svg.height / 2);
    }
    const index = Number(await tooltip().getAttribute('data-index'));
    expect(index).to.be.within(1900, 1999);
    expect(await tooltip().getByTestId('tooltip-close').textContent()).to.equal(usd.format(candles[index]!.close));
    expect(await candleLayerWork()).to.deep.equal({ mutations: 0, rerendered: 0 });
    await screenshot(page, 'price-chart-2000');
  });

  it('falls back to history when the candle call fails, and reads "Failed to fetch price data" when both do', async () => {
    await page.route('**/api/coins/ethereum/ohlc?*', (route) => route.fulfill({ status: 503, json: { title: 'Service Unavailable' } }));
    const history = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/coins/ethereum/history');
    await page.goto('/');
    const points = (await (await history).json()) as Array<{ time: number; price: number }>;
    await chartReady(7);
    expect(await chart().getAttribute('data-source')).to.equal('history');
    expect(await candleGroups().count()).to.equal(points.length);

    await page.route('**/api/coins/ethereum/history?*', (route) => route.fulfill({ status: 500, body: '' }));
    await page.getByRole('button', { name: '30D', exact: true }).click();
    await page.locator('[data-testid="price-chart"][data-state="error"][data-days="30"]').waitFor();
    expect(await page.getByTestId('price-chart-error').textContent()).to.equal('Failed to fetch price data');
    await screenshot(page, 'price-chart-error');
  });

  it('draws real candles at 1H: one-minute candles built from the ticks, with bodies (open != close) and wicks (high > low)', async () => {
    // Issue 17: the old path's one-minute candles were flat (high = low = open = close, one price a minute).
    await openDashboard();
    const answered = page.waitForResponse((r) => isOhlc(r, 0.04));
    await page.getByRole('button', { name: '1H', exact: true }).click();
    const { candles, intervalMinutes } = (await (await answered).json()) as OhlcResponse;
    await chartReady(0.04);
    expect(intervalMinutes).to.equal(1);
    const share = (n: number) => n / candles.length;
    expect(share(candles.filter((c) => c.open !== c.close).length), 'candles with a body').to.be.at.least(0.9);
    expect(share(candles.filter((c) => c.high > c.low).length), 'candles with a range').to.be.at.least(0.9);
    for (const c of candles) {
      expect(c.low, String(c.time)).to.be.at.most(Math.min(c.open, c.close));
      expect(c.high, String(c.time)).to.be.at.least(Math.max(c.open, c.close));
    }
    // Drawn so: each candle's wick spans more than a pixel, most bodies too.
    const drawn = await candleGroups().evaluateAll((groups) =>
      groups.map((g) => {
        const wick = g.querySelector('line')!;
        return { wick: Math.abs(Number(wick.getAttribute('y2')) - Number(wick.getAttribute('y1'))), body: Number(g.querySelector('rect')!.getAttribute('height')) };
      }),
    );
    expect(drawn).to.have.length(candles.length);
    expect(share(drawn.filter((d) => d.wick > 1).length), 'wicks longer than a pixel').to.be.at.least(0.9);
    expect(share(drawn.filter((d) => d.body > 1).length), 'bodies taller than a pixel').to.be.at.least(0.75);
    await screenshot(page, 'price-chart-1h');
  });

  it('fits a 390 px wide screen and follows a resize', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openDashboard();
    const svgWidth = () => page.getByTestId('candle-chart-svg').getAttribute('width').then(Number);
    const narrow = (await page.getByTestId('candle-chart-svg').boundingBox())!;
    expect(narrow.x).to.be.at.least(0);
    expect(narrow.x + narrow.width).to.be.at.most(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    expect(await candleGroups().count()).to.be.within(40, 300);
    await screenshot(page, 'price-chart-390');

    // The ResizeObserver redraws at the new width.
    const before = await svgWidth();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.waitForFunction((w) => Number(document.querySelector('[data-testid="candle-chart-svg"]')?.getAttribute('width')) > w + 300, before);
    expect(await candleGroups().count()).to.be.within(40, 300);
  });
});
