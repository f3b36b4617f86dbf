/**
 * The Active Trades tab (premium): each open position with the stop and target it really has (issue
 * 17: a bot position's follow the risk profile, a trailing stop the highest price since the entry; a
 * manual position's are those its person set, or none: a dash), how they are set, and the money at
 * risk (without a stop, the whole position).
 */
import { FetchError } from '../../../components/ui/fetch-error';
import '../../../components/ui/data-table.css';
import { Panel } from '../../../components/ui/panel';
import { formatCoinAmount, formatPercent, formatPrice, formatSignedUsd, formatUsd } from '../../../lib/number-format';
import { ACTIVE_TRADES_REFETCH_MS, useActiveTrades } from '../api/get-active-trades';

/** `3h 05m`, `2d 4h`, `45s`: the time since the position opened. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

export function ActiveTradesTab() {
  const query = useActiveTrades({ enabled: true, refetchInterval: ACTIVE_TRADES_REFETCH_MS.riskManagement });
  return (
    <Panel title="Active Trades" testId="active-trades">
      {query.isError ? (
        <FetchError text="Failed to fetch active trades" error={query.error} />
      ) : !query.data ? (
        <p className="empty-text">Loading…</p>
      ) : query.data.trades.length === 0 ? (
        <p className="empty-text">No open positions</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th>Symbol</th>
                <th className="num">Quantity</th>
                <th className="num">Entry</th>
                <th className="num">Current</th>
                <th className="num">Stop Loss</th>
                <th className="num">Take Profit</th>
                <th>Exit Rule</th>
                <th className="num">Risk</th>
                <th className="num">Unrealized P&amp;L</th>
                <th className="num">Time in Trade</th>
              </tr>
            </thead>
            <tbody>
              {query.data.trades.map((t) => (
                <tr key={t.id} data-testid="active-trade-row" data-symbol={t.symbol}>
                  <td>{t.symbol}</td>
                  <td className="num">{formatCoinAmount(t.quantity)}</td>
                  <td className="num">{formatPrice(t.entryPrice)}</td>
                  <td className="num">{formatPrice(t.currentPrice)}</td>
                  <td className="num" data-testid="active-trade-stop">
                    {formatPrice(t.stopLoss)}
                  </td>
                  <td className="num" data-testid="active-trade-target">
                    {formatPrice(t.takeProfit)}
                  </td>
                  <td className="exit-rule" data-testid="active-trade-rule">
                    {t.stopRule}
                  </td>
                  <td className="num">
                    {formatUsd(t.riskAmount)} ({formatPercent(t.riskPercentage)})
                  </td>
                  <td className={`num ${t.unrealizedPnL > 0 ? 'up' : t.unrealizedPnL < 0 ? 'down' : ''}`}>{formatSignedUsd(t.unrealizedPnL)}</td>
                  <td className="num">{formatDuration(t.timeInTrade)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
