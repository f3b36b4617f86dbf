import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../../test/services';
import { repoRoot } from './web-build';

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
