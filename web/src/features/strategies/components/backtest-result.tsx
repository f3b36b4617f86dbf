/**
 * The latest backtest started from a card, once completed: its figures, and its notes (what the run
 * assumed: the technical strategy's own exits, which model decided the neural candles, how arbitrage
 * round trips fill). Shown below the cards until another backtest completes or it is dismissed.
 */
import type { BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import { backtestResultFigures } from '../strategy-texts';

export function BacktestResult({ strategyName, detail, onDismiss }: { strategyName: string; detail: BacktestDetail; onDismiss: () => void }) {
  const result = detail.result;
  if (!result) return null;
  const period = `${detail.config.startDate.slice(0, 10)} to ${new Date(Date.parse(detail.config.endDate) - 1).toISOString().slice(0, 10)}`;
  return (
    <section className="card strategy-backtest-result" data-testid="backtest-result" aria-labelledby="backtest-result-title">
      <header className="strategy-backtest-result__header">
        <h2 id="backtest-result-title" className="card__title">
          Backtest: {strategyName}
        </h2>
        <span className="strategy-backtest-result__period">
          {detail.config.symbol} · {period} · ${detail.config.initialCapital.toLocaleString('en-US')}
        </span>
        <button type="button" className="btn btn--sm" onClick={onDismiss}>
          Dismiss
        </button>
      </header>
      <dl className="strategy-figures">
        {backtestResultFigures(result).map(([label, value, id]) => (
          <div key={id}>
            <dt>{label}</dt>
            <dd className="num" data-testid={`backtest-${id}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {result.notes && result.notes.length > 0 && (
        <ul className="strategy-backtest-result__notes" data-testid="backtest-notes">
          {result.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
