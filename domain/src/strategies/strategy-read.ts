/**
 * GET /api/strategies' answers, from the read models (strategy-view.ts), as pure functions the
 * query side calls: a strategy's card (configuration and measured figures), its performance, its live
 * signals. The query side only fetches the documents.
 *
 * Figures come from the strategy's own round trips: those of its paper signals while the user had it
 * active with that configuration (an entry at or after the period's start, an exit before its end), or,
 * with fewer than MIN_TRADES_FOR_FIGURES of them, its latest backtest's when that has more. The card
 * says which (`figuresSource`) and how many (`sampleSize`).
 */
import type { Strategy, StrategyPerformanceResponse, StrategySignalResponse } from './contracts';
import { CONFIGURATION_FIELDS, STRATEGIES, defaultConfiguration, strategyInfo, type StrategyId, type StrategyInfo } from './strategy-catalogue';
import { cumulativeReturns, MIN_TRADES_FOR_FIGURES, strategyFigures } from './strategy-figures';
import type { StrategyRoundTrip } from './strategy-signals';
import { STRATEGY_CANDLE_MS, type StrategyPeriod, type StrategySignalView, type StrategyView } from './strategy-view';

export const NOT_ENOUGH_TRADES = 'not enough trades';

/** The round trips of `signals` (any order) that fall inside one of the periods, oldest exit first. */
export function roundTripsIn(periods: readonly StrategyPeriod[], signals: readonly StrategySignalView[]): StrategyRoundTrip[] {
  // Decided at their candles' closes: the entry's candle and the exit's both closed inside the period.
  const inside = (p: StrategyPeriod, s: StrategySignalView) => {
    const entryClosed = Date.parse(s.trade!.entryTime) + STRATEGY_CANDLE_MS;
    return s.strategyKey === p.configKey && entryClosed >= p.fromMs && s.closedAtMs >= p.fromMs && (p.toMs === null || s.closedAtMs < p.toMs);
  };
  return signals
    .filter((s) => s.trade && periods.some((p) => inside(p, s)))
    .sort((a, b) => a.candleTimeMs - b.candleTimeMs || a.signalId.localeCompare(b.signalId))
    .map((s) => s.trade!);
}

type Chosen = { source: Strategy['figuresSource']; trades: readonly StrategyRoundTrip[] };

function choose(paper: readonly StrategyRoundTrip[], backtest: readonly StrategyRoundTrip[] | null): Chosen {
  if (paper.length < MIN_TRADES_FOR_FIGURES && backtest && backtest.length > paper.length) return { source: 'backtest', trades: backtest };
  return { source: paper.length > 0 ? 'paper' : 'none', trades: paper };
}

export function strategyCard(info: StrategyInfo, view: StrategyView | null, paper: readonly StrategyRoundTrip[], backtest: readonly StrategyRoundTrip[] | null): Strategy {
  const chosen = choose(paper, backtest);
  const figures = strategyFigures(chosen.trades);
  const fields = CONFIGURATION_FIELDS[info.type] as Record<string, { min: number; max: number; default: number; integer: boolean }>;
  return {
    id: info.id,
    name: info.name,
    description: info.description,
    type: info.type,
    active: view?.active ?? false,
    activatedAt: view?.active ? view.activatedAt : null,
    accuracy: figures.accuracy,
    profitFactor: figures.profitFactor,
    sharpeRatio: figures.sharpeRatio,
    winRate: figures.winRate,
    maxDrawdown: figures.maxDrawdown,
    totalReturn: figures.totalReturn,
    figuresSource: chosen.source,
    sampleSize: figures.totalTrades,
    figuresNote: figures.totalTrades < MIN_TRADES_FOR_FIGURES ? NOT_ENOUGH_TRADES : null,
    configuration: { ...((view?.configuration ?? defaultConfiguration(info.type)) as Record<string, number>) },
    defaults: { ...(defaultConfiguration(info.type) as Record<string, number>) },
    bounds: Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, { min: f.min, max: f.max, integer: f.integer }])),
  };
}

export function strategyPerformance(paper: readonly StrategyRoundTrip[], backtest: readonly StrategyRoundTrip[] | null): StrategyPerformanceResponse {
  const chosen = choose(paper, backtest);
  const figures = strategyFigures(chosen.trades);
  return {
    summary: { totalReturn: figures.totalReturn, totalTrades: figures.totalTrades, winRate: figures.winRate, sharpeRatio: figures.sharpeRatio },
    performance: cumulativeReturns(chosen.trades),
    source: chosen.source,
  };
}

export function signalResponse(strategyId: StrategyId, s: StrategySignalView): StrategySignalResponse {
  return {
    id: s.signalId,
    strategyId,
    strategyName: strategyInfo(strategyId).name,
    symbol: s.symbol,
    type: s.type,
    description: s.reasons.join('; '),
    reasons: s.reasons,
    price: s.price,
    confidence: s.confidence,
    candleTime: s.candleTime,
    netReturn: s.trade?.netReturn ?? null,
  };
}

export const allStrategies = STRATEGIES;
