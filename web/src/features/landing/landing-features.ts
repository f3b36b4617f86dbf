/**
 * The four feature cards. Every sentence must be true of this product (DESIGN.md section 6):
 * no indicator count and no latency figure until the product measures them.
 */
import type { IconName } from '../../components/ui/icon';

export const landingFeatures = [
  {
    id: 'ai',
    icon: 'brain',
    title: 'AI Neural Networks',
    summary: 'Models trained on market history that learn from every candle.',
    points: [
      'Accuracy is measured out of sample on held-out candles, never on the training data',
      'Retrain a model or create a new one from the dashboard',
      'The assistant answers from your own portfolio, signals and indicators',
    ],
  },
  {
    id: 'technical',
    icon: 'chart',
    title: 'Technical Analysis',
    summary: 'RSI, MACD and moving averages for every supported coin.',
    points: [
      'Candlestick charts with SMA 20, SMA 50 and EMA 20 overlays',
      'Support and resistance levels drawn on the chart',
      'Every signal names the indicators that produced it',
    ],
  },
  {
    id: 'signals',
    icon: 'bolt',
    title: 'Real-Time Signals',
    summary: 'Buy, sell and hold signals pushed live to your dashboard.',
    points: [
      'Signals arrive over a live connection as the market moves',
      'Each signal carries its confidence and the price it was made at',
      'Follow several coins from one dashboard',
    ],
  },
  {
    id: 'risk',
    icon: 'shield',
    title: 'Risk Management',
    summary: 'Paper trading with real risk rules and no real money at stake.',
    points: [
      'Every trade is a simulation, clearly labelled SIMULATION',
      'Position size limits, stop-loss, take-profit and a daily loss limit',
      'Alerts when a rule is about to be broken',
    ],
  },
] as const satisfies readonly { id: string; icon: IconName; title: string; summary: string; points: readonly string[] }[];

export type LandingFeatureId = (typeof landingFeatures)[number]['id'];
