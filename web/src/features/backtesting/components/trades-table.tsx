/**
 * A completed backtest's fills, a page at a time from GET /api/backtest/{id}/trades (the server pages
 * them): time, side, amount, fill price with what the fill met, fee, realised P&L and why it traded.
 */
import { useState } from 'react';
import type { BacktestTrade } from '@papertrade/domain/backtest/contracts';
import { Panel } from '../../../components/ui/panel';
import { describeError } from '../../../lib/api-client';
import { formatCoinAmount, formatCount, formatPrice, formatSignedUsd, formatUsd, MISSING } from '../../../lib/number-format';
import { useBacktestTrades } from '../api/get-backtest-trades';
import { botRuleLabel } from '../../../lib/bot-rules';
import { executionText, fillTime, reasonLabels } from '../backtest-labels';
import { ScrollRegion } from './scroll-region';

export function TradesTable({ backtestId }: { backtestId: string }) {
  const [page, setPage] = useState(1);
  const trades = useBacktestTrades(backtestId, page, { enabled: true });
  const data = trades.data;
  return (
    <Panel title="Trades" testId="backtest-trades">
      {trades.isError ? (
        <p className="empty-text" role="alert">
          {describeError(trades.error, 'Failed to load the trades')}
        </p>
      ) : !data ? (
        <p className="empty-text">Loading…</p>
      ) : data.total === 0 ? (
        <p className="empty-text" data-testid="backtest-no-trades">
          The strategy made no trade in this period.
        </p>
      ) : (
        <>
          <BacktestTradeRows trades={data.trades} testId="backtest-trades-table" />
          <div className="bt-pager" data-testid="backtest-trades-pager">
            <span>
              Page {data.page} of {Math.max(1, data.pages)} · {formatCount(data.total)} fill{data.total === 1 ? '' : 's'}
            </span>
            <div className="button-row">
              <button type="button" className="btn btn--sm" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
                Previous
              </button>
              <button type="button" className="btn btn--sm" disabled={page >= data.pages} onClick={() => setPage((p) => p + 1)}>
                Next
              </button>
            </div>
          </div>
        </>
      )}
    </Panel>
  );
}

/** The fills as a table (also the comparison's rows). */
export function BacktestTradeRows({ trades, testId }: { trades: readonly BacktestTrade[]; testId: string }) {
  return (
    <ScrollRegion label="Backtest trades">
      <table className="data-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Side</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col" className="num">
              Fee
            </th>
            <th scope="col" className="num">
              P&amp;L
            </th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => (
            <tr key={t.tradeId} data-testid="backtest-trade-row">
              <td>{fillTime(t.time)}</td>
              <td className={t.side === 'BUY' ? 'up' : 'down'}>{t.side}</td>
              <td className="num">{formatCoinAmount(t.amount, t.symbol)}</td>
              <td className="num">
                {formatPrice(t.price)}
                <span className="bt-fill-detail">{executionText(t.execution)}</span>
              </td>
              <td className="num">{formatUsd(t.fee)}</td>
              <td className={`num${t.pnl === null || t.pnl === 0 ? '' : t.pnl > 0 ? ' up' : ' down'}`}>{t.pnl === null ? MISSING : formatSignedUsd(t.pnl)}</td>
              <td>
                {reasonLabels[t.reason]}
                {t.rule && <span className="bt-fill-detail">{botRuleLabel(t.rule)}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
