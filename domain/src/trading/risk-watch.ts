/**
 * The risk monitor's pure rules for one user on one tick, besides the exits: whether the portfolio's
 * value is a new peak to record (RecordPortfolioPeak), and which risk conditions hold (RaiseRiskAlert,
 * one per condition key). The worker (workers/src/risk-monitor.ts) passes the user's `open-positions`
 * document, the tick and the coin's market context (figures; market-figures.ts), and issues the
 * commands. Stops and targets are the trading engine's (engine/exit-spec.ts turns each position's exit
 * plan and the risk profile into levels, engine/exit-scan.ts finds the first tick along the path at or
 * beyond one), since issue 17: before, a tick widened by its minute candle closed at the level's own
 * price, and a trailing stop trailed the highest complete candle.
 *
 * Conditions and their keys (the risk decider raises a key once until its alert is cleared):
 * - daily loss (today's realised loss, UTC) at 50 and 80 percent of maxDailyLoss:
 *   `DAILY_LOSS_50@{day}` (medium), `DAILY_LOSS_80@{day}` (high): at most once per day each;
 * - drawdown above maxDrawdown, measured from the portfolio's recorded peak (the value of the starting
 *   cash, raised by each new peak the monitor records on ticks; reset with the portfolio): `DRAWDOWN`
 *   (critical). While it holds, the bot opens nothing new (bot-trade-decision.ts; GET /api/risk says so
 *   beside the bot status);
 * - a position worth more than maxPositionSize percent of the portfolio by more than a tenth of that
 *   (POSITION_SIZE_TOLERANCE: above 5.5 percent for a maximum of 5): `POSITION_SIZE:{positionId}`
 *   (medium), once per position. The bot opens its positions at the maximum, so without the margin
 *   the first uptick of nearly every bot trade raised an alert (2,971 alerts for 10,000 trades in one
 *   bench:trading run), and alerts nobody can act on hide the ones that matter;
 * - more open positions than maxConcurrentTrades: `CONCURRENT_TRADES` (high);
 * - the coin's volatility (its 24-hour range, market-figures.ts) above volatilityThreshold:
 *   `VOLATILITY:{SYMBOL}@{day}` (high), for the users holding it, once per day; the bot pauses new
 *   entries on the coin meanwhile.
 * The alert id is a UUIDv5 of user, key and tick time, so a replayed command is the same alert.
 */
import { v5 as uuidv5 } from 'uuid';
import type { CoinSymbol } from '../market/coins';
import { dailyRealisedLossUsd } from './bot-trade-decision';
import type { AlertSeverity } from './contracts';
import { drawdownPercent, drawdownStopsEntries, volatilityPauses } from './entry-rules';
import { MICROS_PER_USD, usdToMicros } from './money';
import { profileOfView, type OpenPositionsView } from './open-positions-view';
import { peakOf, utcDay } from './portfolio';
import { PEAK_STEP, type RecordPortfolioPeak } from './portfolio.decider';
import { valuePortfolio, type Prices } from './portfolio-valuation';
import type { RaiseRiskAlert } from './risk.decider';
import type { RiskAlertKind } from './risk';
import { usdText } from './stop-levels';

export const RISK_ALERT_ID_NAMESPACE = '8f5e2c1a-4b6d-4e3f-a9c7-1d2e3f4a5b6c';

/** How far above maxPositionSize (a fraction of it) a position may grow before it raises an alert. */
export const POSITION_SIZE_TOLERANCE = 0.1;

export interface TickRange {
  symbol: CoinSymbol;
  price: number;
  /** ISO time of the tick. */
  at: string;
}

/** What the monitor knows of the ticked coin's market besides the tick (any part may be missing: NaN). */
export interface CoinContext {
  /** The coin's ATR14 and sigma20 now (for positions whose entry recorded none). */
  atr: number;
  sigma: number;
  /** The coin's 24-hour range, percent (volatilityThreshold). */
  range24hPercent: number;
}

export const emptyCoinContext = (): CoinContext => ({ atr: Number.NaN, sigma: Number.NaN, range24hPercent: Number.NaN });

/** The portfolio's value at the tick (the ticked coin at the tick's price), micro-dollars. */
function valueMicros(view: OpenPositionsView, tick: TickRange, prices: Prices): number {
  return usdToMicros(valuePortfolio(view.portfolio, { ...prices, [tick.symbol]: tick.price }).totalValue);
}

/** RecordPortfolioPeak when the value at the tick is at least PEAK_STEP above the recorded peak (the decider checks again). */
export function peakToRecord(view: OpenPositionsView, tick: TickRange, prices: Prices): RecordPortfolioPeak | null {
  if (view.portfolio.status !== 'open') return null;
  const value = valueMicros(view, tick, prices);
  if (value < peakOf(view.portfolio) * (1 + PEAK_STEP)) return null;
  return { type: 'RecordPortfolioPeak', data: { userId: view.userId, valueMicros: value }, metadata: { now: tick.at } };
}

/** RaiseRiskAlert for each condition that holds and has no alert standing (view.alertKeys). */
export function alertsRaised(view: OpenPositionsView, tick: TickRange, prices: Prices, coin: CoinContext = emptyCoinContext()): RaiseRiskAlert[] {
  const parameters = profileOfView(view);
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
  const peak = peakOf(view.portfolio) / MICROS_PER_USD;
  const drawdown = drawdownPercent(peak, valuation.totalValue);
  if (drawdownStopsEntries(drawdown, parameters.maxDrawdown)) {
    raise(
      'DRAWDOWN',
      'DRAWDOWN',
      'critical',
      null,
      `Drawdown of ${drawdown.toFixed(2)}% from the peak ${usdText(Math.max(peak, valuation.totalValue))} is above the maximum of ${parameters.maxDrawdown}%: the bot opens no new positions`,
      drawdown,
      parameters.maxDrawdown,
    );
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
  const range = coin.range24hPercent;
  if (volatilityPauses(range, parameters.volatilityThreshold) && valuation.positions.some((p) => p.symbol === tick.symbol)) {
    raise(
      `VOLATILITY:${tick.symbol}@${day}`,
      'VOLATILITY',
      'high',
      tick.symbol,
      `${tick.symbol}'s 24-hour range of ${range.toFixed(2)}% is above the volatility threshold of ${parameters.volatilityThreshold}%: the bot opens no new ${tick.symbol} positions`,
      range,
      parameters.volatilityThreshold,
    );
  }
  return alerts;
}
