/**
 * The Trade History screen (premium-and-account.md section 2, issue 8): the all-time stat cards (the
 * server's summary over every trade, not just the page), tabs All / Buy / Sell, the trades table one
 * server page at a time, the Filter (coin, status, date range; applied by the server) and Export
 * (every trade of the current filter and tab, as CSV). Visitors see dashes and a Login link. The
 * screen states how sells are matched to buys (FIFO lots, issue 16) and shows what is left of each
 * BUY; Win Rate reads a dash until a trade has closed. Issue 17: each trade's Decision (the bot's rule
 * and figures, or a manual BUY's exits), what each fill met under its price (the mid, the half spread
 * and impact paid, a late bot order's delay, a close's level), and the Bot Decisions list: the BUY
 * signals the bot refused, with the rule that refused each.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { coinSymbols } from '@papertrade/domain/market/coins';
import { tradeStatuses, type Trade, type TradeSummary } from '@papertrade/domain/trading/read-contracts';
import '../../../components/ui/data-table.css';
import '../../../components/ui/badge-variants.css';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel, StatCard } from '../../../components/ui/panel';
import { TabList, tabPanelProps, type TabDef } from '../../../components/ui/tab-list';
import { useToast } from '../../../components/ui/toast/use-toast';
import { describeError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-context';
import { downloadCsv } from '../../../lib/download-file';
import { direction, formatCoinAmount, formatCount, formatPrice, formatSignedUsd, formatUsd, MISSING } from '../../../lib/number-format';
import { useBotDecisions } from '../api/get-bot-decisions';
import { getAllTrades, useTrades } from '../api/get-trades';
import { botRuleLabels } from '../../../lib/bot-rules';
import { arbitrageLegLabel, decisionLabel, executionLabel, lotRuleNote, lotState, signalSource } from '../trade-labels';
import { EMPTY_FILTER, filterError, isFilterActive, TRADE_HISTORY_PAGE_SIZE, type TradeFilter, type TradeTab } from '../trade-query';
import './trade-history.css';

const tabs: ReadonlyArray<TabDef<TradeTab>> = [
  { value: 'ALL', label: 'All' },
  { value: 'BUY', label: 'Buy' },
  { value: 'SELL', label: 'Sell' },
];

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

export function TradeHistoryScreen() {
  const { user } = useAuth();
  const [tab, setTab] = useState<TradeTab>('ALL');
  const [filter, setFilter] = useState<TradeFilter>(EMPTY_FILTER);
  const [showFilter, setShowFilter] = useState(false);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const toast = useToast();
  const invalidRange = filterError(filter);
  const signedIn = user !== null;
  const query = useTrades({ filter, tab, page, pageSize: TRADE_HISTORY_PAGE_SIZE }, { enabled: signedIn && invalidRange === null });

  function changeFilter(next: Partial<TradeFilter>) {
    setFilter((f) => ({ ...f, ...next }));
    setPage(1);
  }

  async function exportCsv() {
    setExporting(true);
    try {
      const [trades, csv] = await Promise.all([getAllTrades(filter, tab), import('../trades-csv')]);
      if (trades.length === 0) {
        toast({ title: 'Nothing to Export', description: 'No data available to export' });
        return;
      }
      downloadCsv(csv.csvFileName(new Date()), csv.tradesToCsv(trades));
      toast({ title: 'Download Started', description: `${formatCount(trades.length)} trade${trades.length === 1 ? '' : 's'} exported` });
    } catch (error) {
      toast({ title: 'Export Failed', description: describeError(error, 'Failed to export trades'), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <TradeStats summary={signedIn ? query.data?.summary : undefined} />
      {!signedIn ? (
        <section className="screen-empty card" data-testid="trade-history-login">
          <h2>Your paper trades</h2>
          <p>Log in to see the trades of your paper portfolio.</p>
          <Link to="/login" className="btn btn--primary">
            Login
          </Link>
        </section>
      ) : (
        <Panel
          title="Trades"
          testId="trade-history"
          actions={
            <div className="button-row">
              <button type="button" className="btn btn--sm" aria-expanded={showFilter} aria-controls="trade-filter" onClick={() => setShowFilter((s) => !s)}>
                Filter{isFilterActive(filter) ? ' (on)' : ''}
              </button>
              <button type="button" className="btn btn--sm" disabled={exporting || invalidRange !== null} onClick={() => void exportCsv()}>
                {exporting ? 'Exporting...' : 'Export'}
              </button>
            </div>
          }
        >
          {showFilter && <FilterForm filter={filter} onChange={changeFilter} error={invalidRange} />}
          <TabList
            tabs={tabs}
            value={tab}
            onChange={(t) => {
              setTab(t);
              setPage(1);
            }}
            label="Trade type"
            idPrefix="trades"
          />
          <div {...tabPanelProps('trades', tab)}>
            {query.data && (
              <p className="trade-lot-rule" data-testid="lot-rule">
                {lotRuleNote(query.data.lotRule)}
              </p>
            )}
            {query.isError ? (
              <FetchError text="Failed to fetch trades" error={query.error} />
            ) : !query.data ? (
              <p className="empty-text">{invalidRange ?? 'Loading…'}</p>
            ) : query.data.trades.length === 0 ? (
              <p className="empty-text" data-testid="no-trades">
                {isFilterActive(filter) || tab !== 'ALL' ? 'No trades match' : 'No trades yet'}
              </p>
            ) : (
              <>
                <TradesTable trades={query.data.trades} />
                <div className="trade-pager" data-testid="trade-pager">
                  <span>
                    Page {query.data.page} of {Math.max(1, query.data.totalPages)} · {formatCount(query.data.total)} trade{query.data.total === 1 ? '' : 's'}
                  </span>
                  <div className="button-row">
                    <button type="button" className="btn btn--sm" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
                      Previous
                    </button>
                    <button type="button" className="btn btn--sm" disabled={page >= query.data.totalPages} onClick={() => setPage((p) => p + 1)}>
                      Next
                    </button>
                  </div>
                </div>
              </>
            )}
          </div>
        </Panel>
      )}
      {signedIn && <BotDecisions />}
    </>
  );
}

/** The bot's recent refusals: when, which signal, the rule and its figures (GET /api/bot/decisions). */
function BotDecisions() {
  const query = useBotDecisions({ enabled: true });
  return (
    <Panel title="Bot Decisions" testId="bot-decisions">
      <p className="trade-lot-rule">Signals the trading bot did not trade, and the rule of your risk profile that refused each (the last 50).</p>
      {query.isError ? (
        <FetchError text="Failed to fetch bot decisions" error={query.error} />
      ) : !query.data ? (
        <p className="empty-text">Loading…</p>
      ) : query.data.refusals.length === 0 ? (
        <p className="empty-text" data-testid="no-bot-decisions">
          No refused signals
        </p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Signal</th>
                <th>Rule</th>
                <th>Decision</th>
              </tr>
            </thead>
            <tbody>
              {query.data.refusals.map((r) => (
                <tr key={r.id} data-testid="bot-decision-row">
                  <td>{timeFormat.format(new Date(r.timestamp))}</td>
                  <td>
                    {r.signalType} {r.symbol}
                  </td>
                  <td data-testid="bot-decision-rule">{botRuleLabels[r.rule]}</td>
                  <td className="bot-decision-text" data-testid="bot-decision-text">
                    {r.text}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

function TradeStats({ summary }: { summary: TradeSummary | undefined }) {
  return (
    <div className="trade-stats">
      <StatCard label="Total Trades" testId="stat-total-trades">
        <p className="stat-card__value">{summary ? formatCount(summary.totalTrades) : MISSING}</p>
      </StatCard>
      <StatCard label="Win Rate" testId="stat-win-rate">
        {/* No closing trade yet: no win rate (a dash), not 0.0 %. */}
        <p className="stat-card__value">{summary && summary.winRate !== null ? `${summary.winRate.toFixed(1)}%` : MISSING}</p>
      </StatCard>
      <StatCard label="Total P&L" testId="stat-total-pnl">
        <p className={`stat-card__value ${summary ? direction(summary.totalPnl) : ''}`}>{summary ? formatSignedUsd(summary.totalPnl) : MISSING}</p>
      </StatCard>
      <StatCard label="Avg Trade Size" testId="stat-avg-size">
        <p className="stat-card__value">{summary ? formatUsd(summary.avgTradeSize) : MISSING}</p>
      </StatCard>
    </div>
  );
}

function FilterForm({ filter, onChange, error }: { filter: TradeFilter; onChange: (next: Partial<TradeFilter>) => void; error: string | null }) {
  return (
    <div id="trade-filter" className="trade-filter" data-testid="trade-filter">
      <div className="field">
        <label className="field__label" htmlFor="filter-coin">
          Coin
        </label>
        <select id="filter-coin" className="input" value={filter.symbol} onChange={(e) => onChange({ symbol: coinSymbols.find((s) => s === e.target.value) ?? '' })}>
          <option value="">All coins</option>
          {coinSymbols.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="filter-status">
          Status
        </label>
        <select id="filter-status" className="input" value={filter.status} onChange={(e) => onChange({ status: tradeStatuses.find((s) => s === e.target.value) ?? '' })}>
          <option value="">Any status</option>
          {tradeStatuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="filter-from">
          From (UTC)
        </label>
        <input id="filter-from" className="input" type="date" value={filter.from} onChange={(e) => onChange({ from: e.target.value })} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="filter-to">
          To (UTC)
        </label>
        <input id="filter-to" className="input" type="date" value={filter.to} min={filter.from || undefined} onChange={(e) => onChange({ to: e.target.value })} />
      </div>
      <button type="button" className="btn btn--ghost btn--sm" disabled={!isFilterActive(filter)} onClick={() => onChange(EMPTY_FILTER)}>
        Clear
      </button>
      {error && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** Under the status: what is left of a BUY's lot, or the rule a SELL followed and its entry price. */
function LotCell({ trade }: { trade: Trade }) {
  const state = lotState(trade, (n) => formatCoinAmount(n));
  if (state === null) return null;
  return (
    <span className="trade-cell__sub" data-testid="trade-lot">
      {trade.type === 'SELL' ? `${state} · entry ${formatPrice(trade.entryPrice)}` : state}
    </span>
  );
}

/** Under the Signal Source of an arbitrage leg: its exchange and its pair. */
function PairLegLine({ trade }: { trade: Trade }) {
  const text = arbitrageLegLabel(trade);
  if (text === null) return null;
  return (
    <span className="trade-cell__sub" data-testid="trade-pair">
      {text}
    </span>
  );
}

/** Under the fill price: what the fill met (the mid, the spread and impact paid, a delay, a close's level). */
function ExecutionLine({ trade }: { trade: Trade }) {
  const text = executionLabel(trade);
  if (text === null) return null;
  return (
    <span className="trade-cell__sub" data-testid="trade-execution">
      {text}
    </span>
  );
}

/** What decided the trade: the bot's rule and its recorded text, or a manual BUY's exits. */
function DecisionCell({ trade }: { trade: Trade }) {
  const label = decisionLabel(trade);
  return (
    <td className="trade-decision" data-testid="trade-decision">
      {label === null ? (
        MISSING
      ) : (
        <>
          <span className="badge" data-testid="trade-decision-rule">
            {label.rule}
          </span>
          <span className="trade-cell__sub">{label.text}</span>
        </>
      )}
    </td>
  );
}

function TradesTable({ trades }: { trades: readonly Trade[] }) {
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="trades-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Type</th>
            <th className="num">Amount</th>
            <th className="num">Price</th>
            <th>Signal Source</th>
            <th className="num">P&amp;L</th>
            <th>Status</th>
            <th>Decision</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => (
            <tr key={t.id} data-testid="trade-row" data-type={t.type}>
              <td>{timeFormat.format(new Date(t.timestamp))}</td>
              <td>
                <span className={`badge ${t.type === 'BUY' ? 'badge--up' : 'badge--destructive'}`}>{t.type}</span>
              </td>
              <td className="num" data-testid="trade-amount">
                {formatCoinAmount(t.amount, t.symbol)}
                <span className="trade-cell__sub">{formatUsd(t.value)}</span>
              </td>
              <td className="num" data-testid="trade-price">
                {formatPrice(t.price)}
                <ExecutionLine trade={t} />
              </td>
              <td>
                <span data-testid="trade-source">{signalSource(t)}</span>
                <PairLegLine trade={t} />
              </td>
              <td className={`num ${direction(t.pnl)}`} data-testid="trade-pnl">
                {t.pnl === null ? MISSING : formatSignedUsd(t.pnl)}
              </td>
              <td>
                <span className="badge">{t.status}</span>
                <LotCell trade={t} />
              </td>
              <DecisionCell trade={t} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
