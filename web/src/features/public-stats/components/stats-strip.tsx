import type { PublicStats } from '@papertrade/domain/public-stats/contracts';
import { formatCount, formatPercent, MISSING } from '../../../lib/number-format';
import { usePublicStats } from '../api/get-public-stats';
import './stats-strip.css';

export const NO_DATA_YET = 'No data yet';

/** A measured accuracy as text; 'No data yet' when nothing has been measured. */
export function formatAccuracy(value: PublicStats['modelAccuracy']): string {
  return value === null ? NO_DATA_YET : formatPercent(value, 1);
}

/** Measured figures of this platform (DESIGN.md section 6); dashes while loading or unavailable. */
export function StatsStrip() {
  const stats = usePublicStats();
  const data = stats.data;
  const items = [
    { id: 'traders', label: 'Registered traders', value: data ? formatCount(data.traders) : MISSING },
    { id: 'accuracy', label: 'AI model accuracy', value: data ? formatAccuracy(data.modelAccuracy) : MISSING, hint: 'measured on held-out data' },
    { id: 'trades', label: 'Simulated trades', value: data ? formatCount(data.simulatedTrades) : MISSING, hint: "paper trades, the demo bot's included" },
  ];
  return (
    <section className="stats-strip" aria-label="Platform statistics" data-testid="stats-strip">
      {items.map((item) => (
        <div key={item.id} className="stats-strip__item">
          <span className={`stats-strip__value num${item.value === NO_DATA_YET ? ' stats-strip__value--empty' : ''}`} data-testid={`stat-${item.id}`}>
            {item.value}
          </span>
          <span className="stats-strip__label">{item.label}</span>
          {item.hint && <span className="stats-strip__hint">{item.hint}</span>}
        </div>
      ))}
      {stats.isError && (
        <p className="stats-strip__note" role="status">
          Statistics are unavailable right now.
        </p>
      )}
    </section>
  );
}
