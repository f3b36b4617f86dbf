/**
 * Tab and Shift+Tab wrap around inside a modal <dialog>. showModal makes the page behind inert, but
 * from the dialog's last control the browser moves focus out to its own toolbar (and from the first,
 * backwards, the same), so a keyboard user has to find the way back in; every dialog of the app
 * wraps instead, as the WAI-ARIA dialog pattern describes.
 */
import type { KeyboardEvent } from 'react';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The controls Tab can reach inside `root`, in order (disabled and hidden ones left out). */
export function tabbables(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0 && el.getClientRects().length > 0,
  );
}

/** Where focus goes for Tab (forwards) from `current` among `items`, wrapping at both ends; null to let the browser move it. */
export function wrapTarget<T>(items: readonly T[], current: T | null, backwards: boolean): T | null {
  if (items.length === 0) return null;
  const index = current === null ? -1 : items.indexOf(current);
  if (index === -1) return backwards ? items[items.length - 1]! : items[0]!;
  if (backwards && index === 0) return items[items.length - 1]!;
  if (!backwards && index === items.length - 1) return items[0]!;
  return null;
}

/** onKeyDown for a modal <dialog>: Tab past either end wraps to the other. */
export function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const items = tabbables(event.currentTarget);
  const target = wrapTarget(items, document.activeElement as HTMLElement | null, event.shiftKey);
  if (target === null) return;
  event.preventDefault();
  target.focus();
}
