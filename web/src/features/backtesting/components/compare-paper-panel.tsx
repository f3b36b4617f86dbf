/**
 * Backtest versus paper (GET /api/backtest/{id}/compare-paper): the backtest's trades lined up with
 * the user's paper trades over the same period; how many agree, and each difference with its
 * explanation (a signal the bot did not act on and why, a fill at another tick, a risk rule that
 * refused). Asked for when the person opens it: it reads their whole paper history of the period.
 */
import { useState } from 'react';
import type { BacktestTrade, ComparisonDifference } from '@papertrade/domain/backtest/contracts';
import { Panel } from '../../../components/ui/panel';
import { describeError } from '../../../lib/api-client';
import { formatCoinAmount, formatCount, formatPrice } from '../../../lib/number-format';
import { useComparePaper } from '../api/get-compare-paper';
import { comparisonKindLabels, fillTime, periodText, reasonLabels } from '../backtest-labels';
import { ScrollRegion } from './scroll-region';

/** Differences listed before 'Show all': a long period the bot never traded differs at every trade. */
export const DIFFERENCES_SHOWN = 10;

export function ComparePaperPanel({ backtestId }: { backtestId: string }) {
  const [open, setOpen] = useState(false);
  const [all, setAll] = useState(false);
  const report = useComparePaper(backtestId, { enabled: open });
  const data = report.data?.report;
  const total = report.data?.differencesTotal ?? 0;
  return (
    <Panel
      title="Backtest versus Paper Trading"
      testId="backtest-compare-paper"
      actions={
        !open ? (
          <button type="button" className="btn btn--sm" onClick={() => setOpen(true)} data-testid="compare-paper-button">
            Compare with paper trading
          </button>
        ) : undefined
      }
    >
      {!open ? (
        <p className="empty-text">Lines this backtest&apos;s trades up with your paper bot&apos;s trades over the same period and explains each difference.</p>
      ) : report.isError ? (
        <p className="empty-text" role="alert">
          {describeError(report.error, 'Failed to compare with paper trading')}
        </p>
      ) : !data ? (
        <p className="empty-text">Comparing…</p>
      ) : (
        <>
          <p className="bt-compare__summary" data-testid="compare-paper-summary">
            {periodText(data.start, data.end)}: {formatCount(data.backtestTrades)} backtest trade{data.backtestTrades === 1 ? '' : 's'}, {formatCount(data.paperTrades)} paper trade
            {data.paperTrades === 1 ? '' : 's'}, {formatCount(data.matched)} matched to the cent.{' '}
            <strong data-testid="compare-paper-verdict">
              {data.agree ? 'They agree trade for trade.' : `${formatCount(total)} difference${total === 1 ? '' : 's'}${total > data.differences.length ? ` (the first ${formatCount(data.differences.length)} listed)` : ''}.`}
            </strong>
          </p>
          {data.differences.length > 0 && (
            <p className="bt-compare__kinds" data-testid="compare-paper-kinds">
              {kindCounts(data.differences)
                .map(([kind, n]) => `${comparisonKindLabels[kind]}: ${formatCount(n)}`)
                .join(' · ')}
              {total > data.differences.length ? ` (of the ${formatCount(data.differences.length)} listed)` : ''}
            </p>
          )}
          {data.differences.length > 0 && (
            <ScrollRegion label="Differences from paper trading">
              <table className="data-table bt-compare__table" data-testid="compare-paper-differences">
                <thead>
                  <tr>
                    <th scope="col">Difference</th>
                    <th scope="col">Backtest</th>
                    <th scope="col">Paper</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {(all ? data.differences : data.differences.slice(0, DIFFERENCES_SHOWN)).map((d, i) => (
                    <DifferenceRow key={i} difference={d} />
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
          {data.differences.length > DIFFERENCES_SHOWN && (
            <button type="button" className="btn btn--sm bt-compare__more" aria-expanded={all} onClick={() => setAll((a) => !a)} data-testid="compare-paper-show-all">
              {all ? `Show the first ${DIFFERENCES_SHOWN}` : `Show all ${formatCount(data.differences.length)} listed`}
            </button>
          )}
        </>
      )}
    </Panel>
  );
}

function DifferenceRow({ difference }: { difference: ComparisonDifference }) {
  return (
    <tr data-testid="compare-paper-difference">
      <td>{comparisonKindLabels[difference.kind]}</td>
      <td>{tradeSummary(difference.backtestTrade)}</td>
      <td>{tradeSummary(difference.paperTrade)}</td>
      <td className="bt-compare__why">{difference.explanation}</td>
    </tr>
  );
}

function tradeSummary(trade: BacktestTrade | undefined): string {
  if (!trade) return '—';
  return `${trade.side} ${formatCoinAmount(trade.amount, trade.symbol)} at ${formatPrice(trade.price)}, ${fillTime(trade.time)} (${reasonLabels[trade.reason]})`;
}

/** How many differences of each kind, in the order kinds first appear. */
function kindCounts(differences: readonly ComparisonDifference[]): Array<[ComparisonDifference['kind'], number]> {
  const counts = new Map<ComparisonDifference['kind'], number>();
  for (const d of differences) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
  return [...counts];
}
