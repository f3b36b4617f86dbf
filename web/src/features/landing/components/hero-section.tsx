import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icon';

/** Decorative market illustration: shapes only, no prices and no figures. */
function HeroIllustration() {
  const bars = [
    [0, 62, 48, 70, 40],
    [1, 50, 44, 58, 38],
    [2, 46, 52, 56, 42],
    [3, 52, 40, 60, 34],
    [4, 40, 36, 46, 30],
    [5, 36, 42, 48, 30],
    [6, 42, 30, 46, 24],
    [7, 30, 24, 34, 18],
    [8, 24, 30, 34, 20],
    [9, 30, 20, 32, 14],
    [10, 20, 14, 24, 8],
    [11, 14, 18, 22, 10],
  ] as const;
  return (
    <div className="hero-visual card" aria-hidden="true">
      <div className="hero-visual__bar">
        <span className="hero-visual__dot" />
        <span className="hero-visual__dot" />
        <span className="hero-visual__dot" />
        <span className="hero-visual__title">ETH/USD · Paper trading</span>
        <span className="badge badge--up">SIMULATION</span>
      </div>
      <svg className="hero-visual__chart" viewBox="0 0 240 80" preserveAspectRatio="none">
        <defs>
          <linearGradient id="hero-area" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stopColor="#6d5efc" stopOpacity="0.35" />
            <stop offset="1" stopColor="#6d5efc" stopOpacity="0" />
          </linearGradient>
        </defs>
        <path d="M0 66 L20 56 L40 50 L60 52 L80 40 L100 40 L120 34 L140 26 L160 28 L180 18 L200 14 L220 16 L240 8 L240 80 L0 80 Z" fill="url(#hero-area)" />
        <path d="M0 66 L20 56 L40 50 L60 52 L80 40 L100 40 L120 34 L140 26 L160 28 L180 18 L200 14 L220 16 L240 8" fill="none" stroke="#8b7fff" strokeWidth="1.2" />
        {bars.map(([i, open, close, low, high]) => {
          const x = 8 + i * 19;
          const up = close < open;
          return (
            <g key={i} className={up ? 'hero-visual__up' : 'hero-visual__down'}>
              <line x1={x + 3} x2={x + 3} y1={high} y2={low} strokeWidth="0.8" />
              <rect x={x} y={Math.min(open, close)} width="6" height={Math.max(2, Math.abs(open - close))} rx="0.8" />
            </g>
          );
        })}
      </svg>
      <div className="hero-visual__signals">
        <div className="hero-signal">
          <span className="hero-signal__type hero-signal__type--buy">BUY</span>
          <span>RSI leaving oversold · MACD crossing up</span>
        </div>
        <div className="hero-signal">
          <span className="hero-signal__type hero-signal__type--hold">HOLD</span>
          <span>Price near the 20-period average</span>
        </div>
      </div>
    </div>
  );
}

export function HeroSection() {
  return (
    <section className="hero">
      <div className="landing-container hero__inner">
        <div className="hero__copy">
          <span className="badge badge--accent hero__eyebrow">Paper trading · No real money at risk</span>
          <h1>
            Trade crypto smarter with an <span className="hero__gradient">AI co-pilot</span>
          </h1>
          <p>
            Market data for the major coins, AI signals that explain themselves, and a paper-trading bot that follows your risk
            rules. Practise your strategy before a single real dollar is involved.
          </p>
          <div className="hero__actions">
            <Link to="/signup" className="btn btn--primary btn--lg" data-testid="hero-start-trial">
              Start Free Trial
              <Icon name="arrowRight" size={16} />
            </Link>
            <Link to="/" className="btn btn--lg" data-testid="hero-watch-demo">
              <Icon name="play" size={14} />
              Watch Demo
            </Link>
          </div>
          <p className="hero__note">Watch Demo opens the live dashboard, no account needed.</p>
        </div>
        <HeroIllustration />
      </div>
    </section>
  );
}
