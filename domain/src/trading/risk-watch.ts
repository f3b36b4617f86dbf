/**
 * The risk monitor's pure alert rules for one user on one tick: which risk conditions hold
 * (RaiseRiskAlert, one per condition key). The worker (workers/src/risk-monitor.ts) passes the user's
 * `open-positions` document and the tick, and issues the commands. Stops and targets are the trading
 * engine's (engine/exit-scan.ts, exit-spec.ts): the first tick along the path at or beyond a level,
 * since issue 17 (before, a tick widened by its minute candle closed at the level's own price).
 *
 * Conditions and their keys (the risk decider raises a key once until its alert is cleared):
 * - daily loss (today's realised loss, UTC) at 50 and 80 percent of maxDailyLoss:
 *   `DAILY_LOSS_50@{day}` (medium), `DAILY_LOSS_80@{day}` (high): at most once per day each;
 * - drawdown above maxDrawdown, measured from the starting cash (the value the portfolio was opened
 *   or last reset with; the read model keeps no running peak): `DRAWDOWN` (critical);
 * - a position worth more than maxPositionSize percent of the portfolio by more than a tenth of that
 *   (POSITION_SIZE_TOLERANCE: above 5.5 percent for a maximum of 5): `POSITION_SIZE:{positionId}`
 *   (medium), once per position. The bot opens its positions at the maximum, so without the margin
 *   the first uptick of nearly every bot trade raised an alert (2,971 alerts for 10,000 trades in one
 *   bench:trading run), and alerts nobody can act on hide the ones that matter;
 * - more open positions than maxConcurrentTrades: `CONCURRENT_TRADES` (high);
 * - the coin moved more than volatilityThreshold percent in 24 hours (the tick's changePercent24h):
 *   `VOLATILITY:{SYMBOL}@{day}` (high), for the users holding it, once per day.
 * The alert id is a UUIDv5 of user, key and tick time, so a replayed command is the same alert.
 */
import { v5 as uuidv5 } from 'uuid';
import type { CoinSymbol } from '../market/coins';
import { dailyRealisedLossUsd } from './bot-trade-decision';
import type { AlertSeverity } from './contracts';
import type { OpenPositionsView } from './open-positions-view';
import { utcDay } from './portfolio';
import { valuePortfolio, type Prices } from './portfolio-valuation';
import type { RaiseRiskAlert } from './risk.decider';
import type { RiskAlertKind } from './risk';
import { usdText } from './money-text';

export const RISK_ALERT_ID_NAMESPACE = '8f5e2c1a-4b6d-4e3f-a9c7-1d2e3f4a5b6c';

/** How far above maxPositionSize (a fraction of it) a position may grow before it raises an alert. */
export const POSITION_SIZE_TOLERANCE = 0.1;

export interface TickRange {
  symbol: CoinSymbol;
  price: number;
  /** ISO time of the tick. */
  at: string;
  /** Unused since issue 17 (the exit scan reads the path's ticks); the monitor passes null. */
  candle: { time: number; high: number; low: number } | null;
}

/** RaiseRiskAlert for each condition that holds and has no alert standing (view.alertKeys). */
export function alertsRaised(view: OpenPositionsView, tick: TickRange & { changePercent24h: number | null }, prices: Prices): RaiseRiskAlert[] {
  const { parameters } = view;
  const day = utcDay(tick.at);
  const alerts: RaiseRiskAlert[] = [];
  const raise = (conditionKey: string, kind: RiskAlertKind, severity: AlertSeverity, symbol: string | null, message: string, value: number, threshold: number) => {
    if (view.alertKeys[conditionKey] !== undefined) return;
    alerts.push({
      type: 'RaiseRiskAlert',
      data: {
        userId: view.userId,
        alertId: uuidv5(`${view.userId}\n${conditionKey}\n${tick.at}`, RISK_ALERT_ID_NAMESPACE),
        conditionKey,
        kind,
        severity,
        symbol,
        message,
        value: Math.round(value * 100) / 100,
        threshold,
      },
      metadata: { now: tick.at },
    });
  };

  const loss = dailyRealisedLossUsd(view.portfolio, tick.at);
  for (const [percent, severity] of [[50, 'medium'], [80, 'high']] as const) {
    const threshold = (parameters.maxDailyLoss * percent) / 100;
    if (loss > 0 && loss >= threshold) {
      raise(`DAILY_LOSS_${percent}@${day}`, 'DAILY_LOSS', severity, null, `Daily loss of ${usdText(loss)} has reached ${percent}% of the ${usdText(parameters.maxDailyLoss)} limit`, loss, threshold);
    }
  }

  if (view.portfolio.status !== 'open') return alerts;
  const valuation = valuePortfolio(view.portfolio, { ...prices, [tick.symbol]: tick.price });
  const drawdown = valuation.startingCash > 0 ? ((valuation.startingCash - valuation.totalValue) / valuation.startingCash) * 100 : 0;
  if (drawdown > parameters.maxDrawdown) {
    raise('DRAWDOWN', 'DRAWDOWN', 'critical', null, `Drawdown of ${drawdown.toFixed(2)}% is above the maximum of ${parameters.maxDrawdown}%`, drawdown, parameters.maxDrawdown);
  }
  for (const p of valuation.positions) {
    const share = valuation.totalValue > 0 ? (p.marketValue / valuation.totalValue) * 100 : 0;
    if (share > parameters.maxPositionSize * (1 + POSITION_SIZE_TOLERANCE)) {
      raise(`POSITION_SIZE:${p.positionId}`, 'POSITION_SIZE', 'medium', p.symbol, `${p.symbol} position is ${share.toFixed(2)}% of the portfolio, above the maximum of ${parameters.maxPositionSize}%`, share, parameters.maxPositionSize);
    }
  }
  const open = valuation.positions.length;
  if (open > parameters.maxConcurrentTrades) {
    raise('CONCURRENT_TRADES', 'CONCURRENT_TRADES', 'high', null, `${open} positions are open, above the maximum of ${parameters.maxConcurrentTrades}`, open, parameters.maxConcurrentTrades);
  }
  const move = tick.changePercent24h === null ? null : Math.abs(tick.changePercent24h);
  if (move !== null && move > parameters.volatilityThreshold && valuation.positions.some((p) => p.symbol === tick.symbol)) {
    raise(`VOLATILITY:${tick.symbol}@${day}`, 'VOLATILITY', 'high', tick.symbol, `${tick.symbol} moved ${move.toFixed(2)}% in 24 hours, above the threshold of ${parameters.volatilityThreshold}%`, move, parameters.volatilityThreshold);
  }
  return alerts;
}
