/**
 * A strategy's Backtest (issue 19) goes through the backtesting engine and its job (issue 18,
 * domain/src/backtest): the strategy's configuration becomes a backtest request of the engine's
 * strategy with the same rule, and the run's trades become the strategy's round trips (the card's
 * figures when its paper sample is smaller, strategy-read.ts).
 *
 * - technical → the engine's 'rsi-mean-reversion' on ETH (the spec's backtest symbol): rsiPeriod, and
 *   oversold / overbought at 100 − rsiOverbought and rsiOverbought (whole numbers, as the engine takes
 *   them). The engine's positions exit by the user's risk profile (their one risk profile, DESIGN.md
 *   section 9), not by the strategy's own stopLoss / takeProfit: the backtest says so in its answer.
 * - neural and arbitrage: the engine has no model-driven or cross-exchange strategy; asking is a 400
 *   saying so (nothing is appended).
 */
import type { BacktestTrade } from '../backtest/contracts';
import { ValidationError } from '../shared/errors';
import type { StrategyBacktestRequest } from './contracts';
import type { StrategyConfiguration, StrategyType, TechnicalConfiguration } from './strategy-catalogue';
import type { StrategyRoundTrip } from './strategy-signals';

export const STRATEGY_BACKTEST_SYMBOL = 'ETH';

export interface EngineBacktestRequest {
  strategyId: string;
  symbol: string;
  startDate: string;
  endDate: string;
  initialCapital: number;
  parameters: Record<string, number>;
}

export function engineBacktestRequest(type: StrategyType, configuration: StrategyConfiguration, request: StrategyBacktestRequest): EngineBacktestRequest {
  if (type !== 'technical') {
    throw new ValidationError(
      type === 'neural'
        ? 'The backtesting engine cannot backtest the neural strategy yet: it has no model-driven strategy (its model is measured out of sample in ML Model Status instead)'
        : 'The backtesting engine cannot backtest the arbitrage strategy yet: it simulates one price per coin, not per exchange',
    );
  }
  const c = configuration as TechnicalConfiguration;
  return {
    strategyId: 'rsi-mean-reversion',
    symbol: STRATEGY_BACKTEST_SYMBOL,
    startDate: request.startDate,
    endDate: request.endDate,
    initialCapital: request.initialCapital,
    parameters: { rsiPeriod: c.rsiPeriod, oversold: Math.round(100 - c.rsiOverbought), overbought: Math.round(c.rsiOverbought) },
  };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * The round trips of a backtest's fills, in time order: each SELL closes the position its coin's
 * BUYs opened (one position per coin, as the bot holds). Net return: the SELL's P&L (net of both
 * fees) over what the position cost (the BUYs' notional and fees); gross: the SELL's price over the
 * BUYs' average price.
 */
export function backtestRoundTrips(trades: readonly BacktestTrade[]): StrategyRoundTrip[] {
  const open = new Map<string, { cost: number; units: number; notional: number; time: string }>();
  const trips: StrategyRoundTrip[] = [];
  const sorted = [...trades].sort((a, b) => a.time.localeCompare(b.time));
  for (const t of sorted) {
    if (t.side === 'BUY') {
      const held = open.get(t.symbol) ?? { cost: 0, units: 0, notional: 0, time: t.time };
      open.set(t.symbol, { cost: held.cost + t.amount * t.price + t.fee, units: held.units + t.amount, notional: held.notional + t.amount * t.price, time: held.time });
      continue;
    }
    const held = open.get(t.symbol);
    if (!held || held.units <= 0 || t.pnl === null) continue;
    const share = Math.min(1, t.amount / held.units);
    const cost = held.cost * share;
    const entryPrice = held.notional / held.units;
    trips.push({ entryPrice, entryTime: held.time, exitPrice: t.price, exitTime: t.time, grossReturn: round((t.price / entryPrice - 1) * 100), netReturn: round((t.pnl / cost) * 100) });
    if (share >= 1) open.delete(t.symbol);
    else open.set(t.symbol, { cost: held.cost - cost, units: held.units - t.amount, notional: held.notional * (1 - share), time: held.time });
  }
  return trips;
}
