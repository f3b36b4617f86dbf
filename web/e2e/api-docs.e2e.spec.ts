/** The API reference page (/api-docs) in real Chromium against the embedded app, from GET /api/openapi.json. */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { MAX_QUANTITY } from '@papertrade/domain/trading/money';
import { screenshot, useBrowserSuite } from './support/browser';

describe('web: API reference (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();
  let page: Page;
  const errors: string[] = [];

  beforeEach(() => {
    ({ page } = suite);
    // A Content-Security-Policy violation shows as a console error ("Refused to ..."): there must be none.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) errors.push(message.text());
    });
  });

  it('lists every endpoint grouped by tag; POST /api/trades shows its body fields with their bounds and who may call it', async () => {
    await page.goto('/api-docs');
    await page.getByRole('heading', { level: 1, name: 'API Reference' }).waitFor();
    const trade = page.locator('[data-endpoint="POST /api/trades"]');
    await trade.waitFor();
    expect(await trade.getByTestId('api-access').textContent()).to.equal('Signed in');
    const body = trade.getByTestId('api-request-body');
    const amount = await body.locator('[data-field="amount"]').textContent();
    expect(amount).to.include('required').and.include('number').and.include('> 0').and.include(`≤ ${MAX_QUANTITY}`);
    expect(await body.locator('[data-field="type"]').textContent()).to.include('"BUY" | "SELL"');
    expect(await body.locator('[data-field="symbol"]').count()).to.equal(1);
    expect(await trade.textContent()).to.include('Idempotency-Key');

    const served = (await (await fetch(`${suite.app.url}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    const documented = Object.values(served.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(await page.getByTestId('api-endpoint').count()).to.equal(documented);
    for (const tag of ['Auth', 'Trading', 'Admin', 'Audit', 'Market']) expect(await page.getByRole('heading', { level: 2, name: tag }).count(), tag).to.equal(1);
    expect(await page.locator('[data-endpoint="GET /api/admin/users"]').getByTestId('api-access').textContent()).to.equal('Admin or auditor');
    expect(errors).to.deep.equal([]);
    await trade.scrollIntoViewIfNeeded();
    await screenshot(page, 'api-docs');
  });

  it("the landing page's footer links to it", async () => {
    await page.goto('/landing');
    await page.locator('footer').getByRole('link', { name: 'API' }).click();
    await page.waitForURL('**/api-docs');
    await page.getByTestId('api-reference').waitFor();
  });
});
