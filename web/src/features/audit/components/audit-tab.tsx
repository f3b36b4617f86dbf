/** @jsxRuntime automatic @jsxImportSource react */
// (The pragma: tests run through tsx with the root tsconfig, which has no jsx setting; Vite does not need it.)
/**
 * The Audit tab's view of one user (admins and auditors), in the Admin Panel's look: who is audited,
 * their timeline (trades, bot, risk and subscription events in the global order, paged, downloadable
 * as CSV) as a data table, and an as-of time that shows the portfolio and subscription rebuilt by
 * replay with the events they came from. Everything comes from GET /api/audit/... (the server redacts
 * secrets); nothing here writes. Which user is chosen by the panel (a user's row, a search, or a raw
 * id): the route passes it in and remounts this view for another user.
 *
 * The as-of input reads to the second; "as of 12:00:00" takes in everything shown as 12:00:00 (up
 * to 12:00:00.999), and the second being lived ends now (asOfFromInput). The time it resolves to is
 * fixed when the input changes, so the reads keep one key while the tab is open.
 */
import { useMemo, useState } from 'react';
import type { AuditEvent } from '@papertrade/domain/audit/contracts';
import { Panel } from '../../../components/ui/panel';
import { describeError } from '../../../lib/api-client';
import { downloadTimelineCsv, usePortfolioAsOf, useSubscriptionAsOf, useTimeline } from '../api/get-audit';
import { formatPrice, formatUsd as usd } from '../../../lib/number-format';
import { asOfFromInput, isoToLocalInput, pageLabel, summariseEvent } from '../audit-view';
// Its styles (audit.css, data-table.css) are imported by audit-styles.ts, which the route loads:
// this module's unit spec renders it in Node, which cannot import CSS.

/** The portfolio state keeps coins in 1e-8 units and dollars in micro-dollars. */
const COIN_UNITS = 1e8;
const MICROS = 1e6;

/** The user audited: the id, and the names when the panel knows them (a row or a search; not a raw id). */
export interface AuditedUser {
  id: string;
  username?: string;
  email?: string;
}

function EventList({ events, label }: { events: AuditEvent[]; label: string }) {
  if (events.length === 0) return <p className="empty-text">No events: the initial state.</p>;
  return (
    <details className="audit-events">
      <summary>{`${label}: built from ${events.length} event${events.length === 1 ? '' : 's'}`}</summary>
      <ol aria-label={label}>
        {events.map((e) => (
          <li key={e.position}>
            <code>{e.time}</code> {e.type} - {summariseEvent(e)}
          </li>
        ))}
      </ol>
    </details>
  );
}

export function AuditTab({ user, initialAsOf }: { user: AuditedUser; initialAsOf?: string }) {
  const userId = user.id;
  const [page, setPage] = useState(1);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [asOfInput, setAsOfInput] = useState(() => isoToLocalInput(initialAsOf ?? new Date().toISOString()));
  // "Now" is when the input took its value, so the reads' keys hold still between renders.
  const asOf = useMemo(() => asOfFromInput(asOfInput, new Date()), [asOfInput]);

  const timeline = useTimeline(userId, page);
  const portfolio = usePortfolioAsOf(userId, asOf);
  const subscription = useSubscriptionAsOf(userId, asOf);

  const downloadCsv = () => void downloadTimelineCsv(userId, page).then(() => setCsvError(null), (e: unknown) => setCsvError(describeError(e, 'Failed to download the timeline')));

  return (
    <div className="audit" data-testid="audit-view">
      <header className="audit-subject card" aria-label="Audited user">
        <span className="audit-subject__label">Auditing</span>
        <div className="audit-subject__who">
          {user.username && <strong className="audit-subject__name">{user.username}</strong>}
          {user.email && <span className="audit-subject__email">{user.email}</span>}
          <code className="audit-subject__id" data-testid="audited-user-id">
            {userId}
          </code>
        </div>
      </header>

      <Panel
        title="Timeline"
        testId="audit-timeline"
        actions={
          <button type="button" className="btn btn--sm" onClick={downloadCsv} disabled={!timeline.data}>
            Download CSV
          </button>
        }
      >
        {csvError && (
          <p className="audit-error" role="alert">
            {csvError}
          </p>
        )}
        {timeline.isError && (
          <p className="audit-error" role="alert">
            {describeError(timeline.error, 'Failed to load the timeline')}
          </p>
        )}
        {!timeline.data && !timeline.isError && <p className="empty-text">Loading…</p>}
        {timeline.data && (
          <>
            <div className="table-scroll">
              <table className="data-table audit-table" aria-label="Audit timeline">
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Category</th>
                    <th>Event</th>
                    <th>Details</th>
                    <th>Position</th>
                  </tr>
                </thead>
                <tbody>
                  {timeline.data.entries.length === 0 && (
                    <tr>
                      <td colSpan={5} className="audit-table__empty">
                        No events for this user
                      </td>
                    </tr>
                  )}
                  {timeline.data.entries.map((e) => (
                    <tr key={e.position}>
                      <td className="num">{e.time}</td>
                      <td>
                        <span className={`badge audit-category audit-category--${e.category}`}>{e.category}</span>
                      </td>
                      <td>{e.type}</td>
                      <td className="audit-table__details" title={JSON.stringify(e.data)}>
                        {summariseEvent(e)}
                      </td>
                      <td>
                        <code className="audit-table__position">{e.position}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav className="audit-pages" aria-label="Timeline pages">
              <button type="button" className="btn btn--sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span className="audit-pages__label">{pageLabel(timeline.data.page, timeline.data.totalPages, timeline.data.total)}</span>
              <button type="button" className="btn btn--sm" disabled={page >= timeline.data.totalPages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          </>
        )}
      </Panel>

      <Panel
        title="State as of"
        testId="audit-as-of"
        actions={
          <div className="audit-as-of">
            <label className="field__label" htmlFor="audit-as-of">
              As of (your local time)
            </label>
            <input id="audit-as-of" className="input audit-as-of__input" type="datetime-local" step={1} value={asOfInput} onChange={(e) => setAsOfInput(e.target.value)} />
          </div>
        }
      >
        {asOf === null ? (
          <p className="audit-error" role="alert">
            Enter a date and time
          </p>
        ) : (
          <p className="field__hint" data-testid="audit-as-of-resolved">{`Replayed from every event up to ${asOf} (UTC), that second included`}</p>
        )}
        <div className="audit-states">
          <section className="audit-state card" aria-label="Portfolio as of">
            <h3 className="audit-state__title">Portfolio</h3>
            {portfolio.isError && (
              <p className="audit-error" role="alert">
                {describeError(portfolio.error, 'Failed to rebuild the portfolio')}
              </p>
            )}
            {portfolio.data && (
              <>
                {!portfolio.data.opened && <p className="empty-text">Not opened yet at that time (the starting cash).</p>}
                <dl className="audit-figures">
                  <div>
                    <dt>Cash</dt>
                    <dd className="num">{usd(portfolio.data.valuation.cash)}</dd>
                  </div>
                  <div>
                    <dt>Positions value</dt>
                    <dd className="num">{usd(portfolio.data.valuation.positionsValue)}</dd>
                  </div>
                  <div>
                    <dt>Total value</dt>
                    <dd className="num">{usd(portfolio.data.valuation.totalValue)}</dd>
                  </div>
                  <div>
                    <dt>Realised P&amp;L</dt>
                    <dd className="num">{usd(portfolio.data.valuation.realisedPnl)}</dd>
                  </div>
                </dl>
                {portfolio.data.state.positions.length === 0 ? (
                  <p className="empty-text">No open positions.</p>
                ) : (
                  <ul className="audit-list" aria-label="Positions held">
                    {portfolio.data.state.positions.map((p) => (
                      <li key={p.positionId}>{`${p.symbol} ${p.units / COIN_UNITS} (cost ${usd(p.costBasisMicros / MICROS)}, opened ${p.openedAt})`}</li>
                    ))}
                  </ul>
                )}
                {portfolio.data.prices.length > 0 && (
                  <ul className="audit-list audit-list--muted" aria-label="Prices used">
                    {portfolio.data.prices.map((p) => (
                      <li key={p.symbol}>
                        {p.price === null ? `${p.symbol}: no market price (${p.note ?? 'unknown'})` : `${p.symbol} at ${formatPrice(p.price)}: ${p.source} market, candle opened ${p.candleTime}`}
                      </li>
                    ))}
                  </ul>
                )}
                <EventList events={portfolio.data.events} label="Portfolio events" />
              </>
            )}
          </section>

          <section className="audit-state card" aria-label="Subscription as of">
            <h3 className="audit-state__title">Subscription</h3>
            {subscription.isError && (
              <p className="audit-error" role="alert">
                {describeError(subscription.error, 'Failed to rebuild the subscription')}
              </p>
            )}
            {subscription.data && (
              <>
                <p className="audit-state__tier">{`${subscription.data.state.tier} (${subscription.data.state.status})`}</p>
                {typeof subscription.data.state.endsAt === 'string' && <p className="empty-text">{`Access ends ${subscription.data.state.endsAt}`}</p>}
                <EventList events={subscription.data.events} label="Subscription events" />
              </>
            )}
          </section>
        </div>
      </Panel>
    </div>
  );
}
