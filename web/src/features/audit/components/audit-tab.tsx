/** @jsxRuntime automatic @jsxImportSource react */
// (The pragma: tests run through tsx with the root tsconfig, which has no jsx setting; Vite does not need it.)
/**
 * The Audit tab of the Admin Panel (admins and auditors): a user id, that user's timeline (trades,
 * bot, risk and subscription events in the global order, paged, downloadable as CSV), and an as-of
 * time that shows the portfolio and subscription rebuilt by replay with the events they came from.
 * Everything comes from GET /api/audit/... (the server redacts secrets); nothing here writes.
 */
import { useState, type FormEvent } from 'react';
import type { AuditEvent } from '@papertrade/domain/audit/contracts';
import { downloadTimelineCsv, usePortfolioAsOf, useSubscriptionAsOf, useTimeline } from '../api/get-audit';
import { formatPrice, formatUsd as usd } from '../../../lib/number-format';
import { isoToLocalInput, localInputToIso, pageLabel, summariseEvent } from '../audit-view';

/** The portfolio state keeps coins in 1e-8 units and dollars in micro-dollars. */
const COIN_UNITS = 1e8;
const MICROS = 1e6;

function EventList({ events, label }: { events: AuditEvent[]; label: string }) {
  if (events.length === 0) return <p className="text-sm text-muted">No events: the initial state.</p>;
  return (
    <details>
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

export function AuditTab({ initialUserId = '', initialAsOf }: { initialUserId?: string; initialAsOf?: string }) {
  const [draft, setDraft] = useState(initialUserId);
  const [userId, setUserId] = useState(initialUserId);
  const [page, setPage] = useState(1);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [asOfInput, setAsOfInput] = useState(() => isoToLocalInput(initialAsOf ?? new Date().toISOString()));
  const asOf = localInputToIso(asOfInput);

  const timeline = useTimeline(userId, page);
  const portfolio = usePortfolioAsOf(userId, asOf);
  const subscription = useSubscriptionAsOf(userId, asOf);

  const choose = (e: FormEvent) => {
    e.preventDefault();
    setUserId(draft.trim());
    setPage(1);
  };

  return (
    <section aria-label="Audit">
      <form onSubmit={choose}>
        <label htmlFor="audit-user">User ID</label>
        <input id="audit-user" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="the user's id" />
        <button type="submit" disabled={draft.trim() === ''}>
          Show history
        </button>
      </form>

      {userId !== '' && (
        <>
          <h3>Timeline</h3>
          {timeline.isError && <p role="alert">{timeline.error.message}</p>}
          {timeline.data && (
            <>
              <table aria-label="Audit timeline">
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
                      <td colSpan={5}>No events for this user</td>
                    </tr>
                  )}
                  {timeline.data.entries.map((e) => (
                    <tr key={e.position}>
                      <td>{e.time}</td>
                      <td>{e.category}</td>
                      <td>{e.type}</td>
                      <td title={JSON.stringify(e.data)}>{summariseEvent(e)}</td>
                      <td>
                        <code>{e.position}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <nav aria-label="Timeline pages">
                <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span>{pageLabel(timeline.data.page, timeline.data.totalPages, timeline.data.total)}</span>
                <button type="button" disabled={page >= timeline.data.totalPages} onClick={() => setPage(page + 1)}>
                  Next
                </button>
                <button type="button" onClick={() => void downloadTimelineCsv(userId, page).then(() => setCsvError(null), (e: unknown) => setCsvError(e instanceof Error ? e.message : String(e)))}>
                  Download CSV
                </button>
                {csvError && <span role="alert">{csvError}</span>}
              </nav>
            </>
          )}

          <h3>State as of</h3>
          <label htmlFor="audit-as-of">As of (your local time)</label>
          <input id="audit-as-of" type="datetime-local" step={1} value={asOfInput} onChange={(e) => setAsOfInput(e.target.value)} />
          {asOf === null && <p role="alert">Enter a date and time</p>}

          {portfolio.isError && <p role="alert">{portfolio.error.message}</p>}
          {portfolio.data && (
            <div aria-label="Portfolio as of">
              <h4>Portfolio</h4>
              {!portfolio.data.opened && <p>Not opened yet at that time (the starting cash).</p>}
              <dl>
                <dt>Cash</dt>
                <dd>{usd(portfolio.data.valuation.cash)}</dd>
                <dt>Positions value</dt>
                <dd>{usd(portfolio.data.valuation.positionsValue)}</dd>
                <dt>Total value</dt>
                <dd>{usd(portfolio.data.valuation.totalValue)}</dd>
                <dt>Realised P&amp;L</dt>
                <dd>{usd(portfolio.data.valuation.realisedPnl)}</dd>
              </dl>
              {portfolio.data.state.positions.length === 0 ? (
                <p>No open positions.</p>
              ) : (
                <ul aria-label="Positions held">
                  {portfolio.data.state.positions.map((p) => (
                    <li key={p.positionId}>{`${p.symbol} ${p.units / COIN_UNITS} (cost ${usd(p.costBasisMicros / MICROS)}, opened ${p.openedAt})`}</li>
                  ))}
                </ul>
              )}
              {portfolio.data.prices.length > 0 && (
                <ul aria-label="Prices used">
                  {portfolio.data.prices.map((p) => (
                    <li key={p.symbol}>
                      {p.price === null ? `${p.symbol}: no market price (${p.note ?? 'unknown'})` : `${p.symbol} at ${formatPrice(p.price)}: ${p.source} market, candle opened ${p.candleTime}`}
                    </li>
                  ))}
                </ul>
              )}
              <EventList events={portfolio.data.events} label="Portfolio events" />
            </div>
          )}

          {subscription.isError && <p role="alert">{subscription.error.message}</p>}
          {subscription.data && (
            <div aria-label="Subscription as of">
              <h4>Subscription</h4>
              <p>{`${subscription.data.state.tier} (${subscription.data.state.status})`}</p>
              {typeof subscription.data.state.endsAt === 'string' && <p>{`Access ends ${subscription.data.state.endsAt}`}</p>}
              <EventList events={subscription.data.events} label="Subscription events" />
            </div>
          )}
        </>
      )}
    </section>
  );
}
