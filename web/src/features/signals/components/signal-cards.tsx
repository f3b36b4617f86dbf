/**
 * The signal cards of the dashboard's top row for the selected coin, from GET /api/signals?symbol=
 * (the same query as the signals panel, so one request serves all three):
 * - AI Confidence: the confidence of the latest signal of that coin, said to be so (and "mixed
 *   evidence" when its reasons conflict: such a signal's confidence is low by its formula);
 * - Active Signals: the server's counts (total, buy, sell, hold) of that coin's signals.
 */
import { FetchError } from '../../../components/ui/fetch-error';
import { StatCard } from '../../../components/ui/panel';
import { formatCount, formatPercent, MISSING } from '../../../lib/number-format';
import { SIGNALS_ERROR, useSignals } from '../api/get-signals';
import { confidenceNote, latestSignal } from '../signal-summary';

export function AiConfidenceCard({ symbol }: { symbol: string }) {
  const signals = useSignals(symbol);
  const latest = signals.data ? latestSignal(signals.data) : null;
  return (
    <StatCard label="AI Confidence" testId="ai-confidence-card">
      <span className="stat-card__value num" data-testid="ai-confidence-value">
        {latest ? formatPercent(latest.confidence, 1) : MISSING}
      </span>
      <span className="stat-card__note" data-testid="ai-confidence-note">
        {latest
          ? confidenceNote(latest, symbol)
          : signals.isSuccess
            ? `No ${symbol} signal yet: the engine speaks when the indicators agree`
            : `From the latest ${symbol} signal`}
      </span>
      {signals.isError && <FetchError text={SIGNALS_ERROR} error={signals.error} />}
    </StatCard>
  );
}

export function ActiveSignalsCard({ symbol }: { symbol: string }) {
  const signals = useSignals(symbol);
  const counts = signals.data?.counts;
  return (
    <StatCard label="Active Signals" testId="active-signals-card">
      <span className="stat-card__value num" data-testid="active-signals-total">
        {formatCount(counts?.total)}
      </span>
      <span className="stat-card__note num signal-counts" data-testid="active-signals-counts">
        <span className="up">{formatCount(counts?.buy)} buy</span> · <span className="down">{formatCount(counts?.sell)} sell</span> ·{' '}
        <span className="flat">{formatCount(counts?.hold)} hold</span>
      </span>
      {signals.isError && <FetchError text={SIGNALS_ERROR} error={signals.error} />}
    </StatCard>
  );
}
