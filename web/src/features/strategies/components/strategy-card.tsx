/**
 * A strategy's card (spec sections 2 and 3): name, type, description, the active switch, the figures
 * measured from its own round trips ('—' with 'not enough trades' below 20, and where they come
 * from), its configuration, and Configure, Performance, Backtest and (neural only) Retrain.
 */
import type { Strategy } from '@papertrade/domain/strategies/contracts';
import { FIELD_LABELS, figureText, figuresSourceText, NOT_ENOUGH_TRADES } from '../strategy-texts';

export interface StrategyCardActions {
  onToggle: (active: boolean) => void;
  onConfigure: () => void;
  onPerformance: () => void;
  onBacktest: () => void;
  onRetrain: () => void;
  toggling: boolean;
  retraining: boolean;
}

const TYPE_LABEL = { neural: 'Neural', technical: 'Technical', arbitrage: 'Arbitrage' } as const;

export function StrategyCard({ strategy: s, actions }: { strategy: Strategy; actions: StrategyCardActions }) {
  const switchId = `strategy-switch-${s.id}`;
  const figures: Array<[string, string, string]> = [
    ['Accuracy', figureText(s.accuracy, 'percent'), 'accuracy'],
    ['Profit factor', figureText(s.profitFactor, 'ratio'), 'profit-factor'],
    ['Sharpe ratio', figureText(s.sharpeRatio, 'ratio'), 'sharpe'],
    ['Win rate', figureText(s.winRate, 'percent'), 'win-rate'],
    ['Max drawdown', figureText(s.maxDrawdown, 'percent'), 'max-drawdown'],
  ];
  return (
    <article className="card strategy-card" data-testid={`strategy-card-${s.id}`} aria-labelledby={`${s.id}-name`}>
      <header className="strategy-card__header">
        <div>
          <h3 id={`${s.id}-name`} className="strategy-card__name">
            {s.name}
          </h3>
          <span className="badge">{TYPE_LABEL[s.type]}</span>{' '}
          <span className={s.active ? 'badge badge--up' : 'badge'} data-testid="strategy-status">
            {s.active ? 'Active' : 'Inactive'}
          </span>
        </div>
        <label className="strategy-switch" htmlFor={switchId}>
          <input id={switchId} type="checkbox" role="switch" checked={s.active} disabled={actions.toggling} onChange={(e) => actions.onToggle(e.target.checked)} data-testid="strategy-switch" aria-label={`${s.name} active`} />
          <span className="strategy-switch__track" aria-hidden="true" />
        </label>
      </header>
      <p className="strategy-card__description">{s.description}</p>
      <dl className="strategy-figures">
        {figures.map(([label, value, id]) => (
          <div key={id}>
            <dt>{label}</dt>
            <dd className="num" data-testid={`figure-${id}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="strategy-card__source" data-testid="figures-source">
        {figuresSourceText(s)}
        {s.figuresNote === NOT_ENOUGH_TRADES && <span className="strategy-card__note"> · {NOT_ENOUGH_TRADES}</span>}
      </p>
      <p className="strategy-card__config" data-testid="strategy-config">
        {Object.keys(s.bounds)
          .map((k) => `${FIELD_LABELS[k] ?? k}: ${s.configuration[k] ?? s.defaults[k]}`)
          .join(' · ')}
      </p>
      <div className="button-row">
        <button type="button" className="btn btn--sm" onClick={actions.onConfigure}>
          Configure
        </button>
        <button type="button" className="btn btn--sm" onClick={actions.onPerformance}>
          Performance
        </button>
        <button type="button" className="btn btn--sm" onClick={actions.onBacktest}>
          Backtest
        </button>
        {s.type === 'neural' && (
          <button type="button" className="btn btn--sm" onClick={actions.onRetrain} disabled={actions.retraining}>
            {actions.retraining ? 'Retraining...' : 'Retrain'}
          </button>
        )}
      </div>
    </article>
  );
}
