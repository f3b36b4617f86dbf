import type { SubscriptionResponse, UsageItem } from '@papertrade/domain/subscription/contracts';
import { formatCount } from '../../../lib/number-format';
import { usageHint, usageMeter } from '../usage-level';


const LINES: readonly { key: keyof SubscriptionResponse['usage']; label: string }[] = [
  { key: 'tradingStrategies', label: 'Trading Strategies' },
  { key: 'exchanges', label: 'Exchange Connections' },
  { key: 'apiCalls', label: 'API Calls' },
  { key: 'trades', label: 'Trades' },
];

function UsageLine({ id, label, item }: { id: string; label: string; item: UsageItem }) {
  const meter = usageMeter(item.used, item.limit);
  return (
    <li className="usage-line" data-testid={`usage-${id}`} data-level={meter.level}>
      <div className="usage-line__head">
        <span className="usage-line__label">{label}</span>
        <span className="usage-line__value num" data-testid={`usage-${id}-value`}>
          {item.limit === null ? `${formatCount(item.used)} · Unlimited` : `${formatCount(item.used)} / ${formatCount(item.limit)}`}
        </span>
      </div>
      {item.limit !== null && (
        <div className="usage-bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={item.limit} aria-valuenow={item.used}>
          <div className={`usage-bar__fill usage-bar__fill--${meter.level}`} style={{ width: `${meter.percent}%` }} />
        </div>
      )}
      {/* The count's source does not exist yet: say so rather than show a 0 as if measured. */}
      {!item.tracked && <p className="usage-line__note">Not tracked yet: this feature is not available in the app yet.</p>}
    </li>
  );
}

/** The Usage tab: each count against the plan's limit; 90% or more red, 70% or more amber. */
export function UsageMeters({ subscription }: { subscription: SubscriptionResponse }) {
  return (
    <div className="card sub-section" data-testid="usage-tab">
      <h2 className="sub-section__title">Usage this billing period</h2>
      <p className="sub-section__hint">{usageHint(subscription)}</p>
      <ul className="usage-lines">
        {LINES.map(({ key, label }) => (
          <UsageLine key={key} id={key} label={label} item={subscription.usage[key]} />
        ))}
      </ul>
    </div>
  );
}
