import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../../test/services';
import { startApp, type StartedApp } from '../../../test/app-process';
import { requireServices } from '../../../test/services';
import { ensureWebBuilt, repoRoot } from './web-build';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

const screenshotDir = path.join(repoRoot, 'artifacts', 'screenshots');

/** Saves artifacts/screenshots/<name>.png (artifacts/ is gitignored). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** The text of the visible toast: title and description. */
export async function readToast(page: Page): Promise<{ title: string; description: string | null; variant: string | null }> {
  const toast = page.getByTestId('toast');
  await toast.waitFor();
  const title = (await toast.getByTestId('toast-title').textContent()) ?? '';
  const descriptionEl = toast.getByTestId('toast-description');
  const description = (await descriptionEl.count()) > 0 ? await descriptionEl.textContent() : null;
  return { title, description, variant: await toast.getAttribute('data-variant') };
}

/** Waits until the visible toast has this title (a new toast replaces the old one). */
export async function expectToast(page: Page, title: string, description?: string) {
  const toast = page.getByTestId('toast').filter({ has: page.getByTestId('toast-title').getByText(title, { exact: true }) });
  await toast.waitFor();
  if (description !== undefined) await toast.getByTestId('toast-description').getByText(description, { exact: true }).waitFor();
  return readToast(page);
}

export function authToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('authToken'));
}

export interface BrowserSuite {
  app: StartedApp;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /**
   * What Chromium refused under the Content-Security-Policy during this test. Every test fails on a
   * refusal it leaves here, so a bundle change that the policy would break is caught by any suite.
   */
  cspViolations: string[];
}

/**
 * The lifecycle every browser suite shares: Chromium required (skipped outside CI when missing), the
 * web app built, the embedded app started on a fresh data folder, and a fresh context and page for
 * each test. Call inside `describe`; read the fields in hooks and tests.
 */
export function useBrowserSuite(options: { env?: Record<string, string> } = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  before(async function () {
    await requireServices(this, 'chromium');
    ensureWebBuilt();
    suite.app = await startApp(options.env ? { env: options.env } : {});
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.app?.stop();
  });
  beforeEach(async () => {
    suite.context = await suite.browser.newContext({ baseURL: suite.app.url, viewport: { width: 1440, height: 900 } });
    suite.page = await suite.context.newPage();
    suite.cspViolations = [];
    suite.page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) suite.cspViolations.push(message.text());
    });
  });
  afterEach(async function () {
    await suite.context?.close();
    const violations = suite.cspViolations ?? [];
    if (violations.length > 0 && this.currentTest?.state === 'passed') {
      throw new Error(`"${this.currentTest.title}" ran into Content-Security-Policy refusals:\n${violations.join('\n')}`);
    }
  });
  return suite;
}
