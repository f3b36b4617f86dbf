import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BrandMark } from '../../../components/ui/brand-mark';
import { Icon } from '../../../components/ui/icon';
import './auth-layout.css';

const points = [
  'Paper trading with a 10,000 USD simulated account: no real money at risk',
  'AI signals that name the indicators behind them',
  'Risk rules for every simulated trade: stop-loss, take-profit, daily limits',
];

/** Candles drawn for decoration only: no axis, no prices, no claims. */
const candles = [
  [8, 30, 22, 34],
  [28, 24, 18, 30],
  [48, 26, 14, 29],
  [68, 18, 10, 22],
  [88, 21, 13, 25],
  [108, 14, 6, 18],
  [128, 16, 9, 20],
  [148, 10, 2, 13],
] as const;

function DecorativeChart() {
  return (
    <svg className="auth-aside__chart" viewBox="0 0 168 40" aria-hidden="true">
      {candles.map(([x, open, high, close], i) => {
        const rising = i % 3 !== 1;
        const top = Math.min(open, close);
        return (
          <g key={x} className={rising ? 'auth-aside__candle--up' : 'auth-aside__candle--down'}>
            <line x1={x + 3} x2={x + 3} y1={high} y2={Math.max(open, close) + 6} />
            <rect x={x} y={top} width={6} height={Math.max(3, Math.abs(open - close) + 4)} rx={0.8} />
          </g>
        );
      })}
    </svg>
  );
}

export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer: ReactNode }) {
  return (
    <div className="auth-layout">
      <main className="auth-layout__main">
        <Link to="/landing" className="auth-layout__brand">
          <BrandMark size={30} />
          <span>AI Trading Assistant</span>
        </Link>
        <div className="auth-card card">
          <header className="auth-card__header">
            <h1>{title}</h1>
            <p>{subtitle}</p>
          </header>
          {children}
        </div>
        <div className="auth-layout__footer">{footer}</div>
      </main>
      <aside className="auth-aside" aria-label="About the product">
        <div className="auth-aside__inner">
          <span className="badge badge--up">Simulation</span>
          <h2>Learn to trade crypto with an AI co-pilot, risk-free.</h2>
          <ul>
            {points.map((point) => (
              <li key={point}>
                <Icon name="check" size={16} />
                <span>{point}</span>
              </li>
            ))}
          </ul>
          <DecorativeChart />
        </div>
      </aside>
    </div>
  );
}
