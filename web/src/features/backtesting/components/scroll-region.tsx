import type { ReactNode } from 'react';

/**
 * A table's horizontal scroll box, reachable by keyboard (axe: a scrollable region must be
 * focusable), named for screen readers.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
