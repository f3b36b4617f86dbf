/** axe-core (@axe-core/playwright) as the browser specs use it: WCAG 2.1 A/AA and axe's best practices. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** The serious and critical violations on the page as it is now, one line each. */
export async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}
