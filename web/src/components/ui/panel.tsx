/** @jsxRuntime automatic @jsxImportSource react */
// (The pragma: the Audit tab's unit spec renders this through tsx with the root tsconfig, which has no jsx setting.)
import type { ReactNode } from 'react';

/** A titled dashboard panel; `testId` names it for tests. */
export function Panel({ title, actions, testId, className, children }: { title: string; actions?: ReactNode; testId?: string; className?: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className={className ? `panel ${className}` : 'panel'} aria-labelledby={id} data-testid={testId}>
      <header className="panel__header">
        <h2 id={id} className="panel__title">
          {title}
        </h2>
        {actions}
      </header>
      <div className="panel__body">{children}</div>
    </section>
  );
}

/** A small figure card of the dashboard's top row. */
export function StatCard({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <section className="stat-card" aria-label={label} data-testid={testId}>
      <h2 className="stat-card__label">{label}</h2>
      {children}
    </section>
  );
}

/** Honest "not built yet" text for the places the next issues fill. */
export function ComingSoon({ children }: { children: ReactNode }) {
  return (
    <p className="coming-soon" data-testid="coming-soon">
      <span className="badge badge--accent">Coming</span> {children}
    </p>
  );
}
