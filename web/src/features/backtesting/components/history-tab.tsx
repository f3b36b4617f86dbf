/**
 * History (premium; GET /api/backtest/history every 30 s): the user's backtests and walk-forwards,
 * newest first: when, strategy, coin, period, status, trades, win rate and return (fractions as
 * percentages). Each row's Open button (or a click on the row) shows its Results.
 */
import type { StrategyDefinition } from '@papertrade/domain/backtest/contracts';
import { Panel } from '../../../components/ui/panel';
import { describeError } from '../../../lib/api-client';
import { formatCount, MISSING } from '../../../lib/number-format';
import { useBacktestHistory, type HistoryItem } from '../api/get-backtest-history';
import { percentOfFraction, signedPercentOfFraction } from '../backtest-texts';
import { periodText, statusLabel, strategyName } from '../backtest-labels';
import { ScrollRegion } from './scroll-region';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function HistoryTab({ strategies, onOpen }: { strategies: readonly StrategyDefinition[] | undefined; onOpen: (id: string) => void }) {
  const history = useBacktestHistory({ enabled: true });
  return (
    <Panel title="Backtest History" testId="backtest-history">
      {history.isError ? (
        <p className="empty-text" role="alert">
          {describeError(history.error, 'Failed to load the backtest history')}
        </p>
      ) : !history.data ? (
        <p className="empty-text">Loading…</p>
      ) : history.data.length === 0 ? (
        <p className="empty-text" data-testid="backtest-history-empty">
          No backtests yet. Run one on the Run Backtest tab.
        </p>
      ) : (
        <ScrollRegion label="Backtest history">
          <table className="data-table" data-testid="backtest-history-table">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Strategy</th>
                <th scope="col">Symbol</th>
                <th scope="col">Period</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Trades
                </th>
                <th scope="col" className="num">
                  Win Rate
                </th>
                <th scope="col" className="num">
                  Return
                </th>
                <th scope="col">
                  <span className="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((item) => (
                <HistoryRow key={item.id} item={item} strategies={strategies} onOpen={onOpen} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Panel>
  );
}

function HistoryRow({ item, strategies, onOpen }: { item: HistoryItem; strategies: readonly StrategyDefinition[] | undefined; onOpen: (id: string) => void }) {
  const name = strategyName(strategies, item.strategyId);
  const ret = item.totalReturn;
  return (
    <tr className="bt-history__row" data-testid="backtest-history-row" data-id={item.id} onClick={() => onOpen(item.id)}>
      <td>{when.format(new Date(item.createdAt))}</td>
      <td>
        {name}
        {item.mode === 'walk-forward' && <span className="badge bt-history__mode">Walk-forward</span>}
      </td>
      <td>{item.symbol}</td>
      <td>{periodText(item.startDate, item.endDate)}</td>
      <td data-testid="backtest-history-status">{statusLabel(item.status)}</td>
      <td className="num">{item.totalTrades === null ? MISSING : formatCount(item.totalTrades)}</td>
      <td className="num">{item.winRate === null || item.totalTrades === 0 ? MISSING : percentOfFraction(item.winRate)}</td>
      <td className={`num${ret === null || ret === 0 ? '' : ret > 0 ? ' up' : ' down'}`}>{signedPercentOfFraction(ret)}</td>
      <td>
        <button
          type="button"
          className="btn btn--sm"
          aria-label={`Open ${name} ${item.symbol} ${periodText(item.startDate, item.endDate)}`}
          onClick={(event) => {
            event.stopPropagation();
            onOpen(item.id);
          }}
        >
          Open
        </button>
      </td>
    </tr>
  );
}
