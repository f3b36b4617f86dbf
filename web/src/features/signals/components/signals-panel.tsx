/**
 * The signals panel beside the chart: the selected coin's latest signals (newest first), each with
 * its type, confidence, price and time, and the reasons that produced it (which indicator said what,
 * its value and the threshold it was held against, its weight and its part of the score), then how
 * the confidence follows from them (../signal-explanation.ts): the score, the confidence, and why
 * the evidence is mixed when it is, so a visitor can see why and check the arithmetic.
 */
import { SIGNAL_FORMULA_TEXT, type Signal } from '@papertrade/domain/signals/contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { formatPercent, formatPrice, formatReading } from '../../../lib/number-format';
import { SIGNALS_ERROR, useSignals } from '../api/get-signals';
import { explainSignal, reasonContribution } from '../signal-explanation';
import './signals-panel.css';

/** Signals shown; the rest of the history is for the premium screens. */
export const SIGNALS_SHOWN = 10;

const time = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

const TYPE_CLASS = { BUY: 'up', SELL: 'down', HOLD: 'flat' } as const;

function SignalItem({ signal }: { signal: Signal }) {
  const explanation = explainSignal(signal);
  return (
    <li className="signal" data-testid="signal-item">
      <div className="signal__head">
        <span className={`signal__type ${TYPE_CLASS[signal.type]}`} data-testid="signal-type">
          {signal.type}
        </span>
        <span className="signal__confidence num" data-testid="signal-confidence">
          {formatPercent(signal.confidence, 1)} confidence
        </span>
        {signal.mixed && (
          <span className="badge signal__mixed" data-testid="signal-mixed">
            mixed
          </span>
        )}
        <span className="signal__price num">{formatPrice(signal.price)}</span>
        <time className="signal__time" dateTime={signal.timestamp}>
          {time.format(new Date(signal.timestamp))}
        </time>
      </div>
      {signal.reasons.length > 0 && (
        <ul className="signal__reasons" aria-label="Reasons">
          {signal.reasons.map((reason) => (
            <li key={reason.indicator} className="signal__reason" data-testid="signal-reason">
              <span className="signal__indicator">{reason.indicator}</span>
              <span className="num">{formatReading(reason.value)}</span>
              <span className="signal__threshold num">vs {formatReading(reason.threshold)}</span>
              <span className={`signal__says ${TYPE_CLASS[reason.says]}`}>{reason.says}</span>
              <span className="signal__weight num" title={`weight ${reason.weight} × vote ${reason.vote}`} data-testid="signal-reason-weight">
                ×{reason.weight} → {reasonContribution(reason)}
              </span>
              <span className="signal__text">{reason.text}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="signal__math" data-testid="signal-explanation">
        <span className="num">{explanation.score}</span>
        <span className="num" data-testid="signal-explanation-confidence">
          {explanation.confidence}
        </span>
        {explanation.mixed && <span data-testid="signal-explanation-mixed">{explanation.mixed}</span>}
        <span className="signal__formula" title={SIGNAL_FORMULA_TEXT[explanation.formula]}>
          Formula {explanation.formula}
        </span>
      </div>
    </li>
  );
}

export function SignalsPanel({ symbol }: { symbol: string }) {
  const signals = useSignals(symbol);
  const list = signals.data?.signals.slice(0, SIGNALS_SHOWN) ?? [];
  return (
    <Panel title="AI Signals" testId="signals-panel" actions={<span className="badge">{symbol}</span>}>
      {signals.isError && <FetchError text={SIGNALS_ERROR} error={signals.error} />}
      {signals.isSuccess && list.length === 0 && <p className="empty-text">No recent signals available</p>}
      {list.length > 0 && (
        // The list scrolls inside the panel: focusable and named, so a keyboard user can scroll it too (WCAG 2.1.1).
        <ul className="signal-list" tabIndex={0} aria-label={`Latest ${symbol} signals`}>
          {list.map((signal) => (
            <SignalItem key={signal.id} signal={signal} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
