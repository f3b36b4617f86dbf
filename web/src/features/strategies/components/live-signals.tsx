/** Live Signals: the newest signals of the user's active strategies, each with the strategy that made it and why. */
import type { StrategySignalResponse } from '@papertrade/domain/strategies/contracts';
import { Panel } from '../../../components/ui/panel';
import { formatPrice } from '../../../lib/number-format';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function LiveSignals({ signals, anyActive }: { signals: readonly StrategySignalResponse[]; anyActive: boolean }) {
  return (
    <Panel title="Live Signals" testId="live-signals">
      {signals.length === 0 ? (
        <p className="empty-text" data-testid="live-signals-empty">
          {anyActive ? 'No signals yet: your active strategies have not bought, sold or found an arbitrage since you activated them.' : 'Activate a strategy to see its signals here; until then your bot follows the house signals.'}
        </p>
      ) : (
        <ul className="strategy-signals">
          {signals.map((s) => (
            <li key={s.id} className="strategy-signal" data-testid="live-signal">
              <div className="strategy-signal__head">
                <span className={s.type === 'SELL' ? 'badge strategy-signal__sell' : 'badge badge--up'}>{s.type}</span>
                <strong>{s.symbol}</strong>
                <span className="num">{formatPrice(s.price)}</span>
                <span className="num">{`${s.confidence.toFixed(0)}% confidence`}</span>
                <span className="strategy-signal__by" data-testid="signal-strategy">
                  {s.strategyName}
                </span>
                <time dateTime={s.candleTime}>{when.format(new Date(s.candleTime))}</time>
              </div>
              <p className="strategy-signal__why" data-testid="signal-reason">
                {s.description}
                {s.netReturn !== null && ` · round trip ${s.netReturn >= 0 ? '+' : ''}${s.netReturn.toFixed(2)}% after fees`}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
