/**
 * A strategy's signals: the stream `strategy-signals-{configId}-{SYMBOL}`, one per configuration (and,
 * for the neural strategy, the model it reads) and coin. Every user whose active strategy has that
 * configuration follows the same stream: one evaluation per candle, however many users share it
 * (the workers' strategy engine evaluates each distinct configuration once and issues EvaluateStrategy
 * here; the bot follows StrategySignalGenerated).
 *
 * The stream's state is the strategy's own paper position (flat, or long since an entry price and
 * time), so a signal is position-aware the same way for everyone, and every exit carries its round
 * trip: the strategy's own trade, which its figures measure (strategy-figures.ts).
 *
 * Rules (decided at the candle's close, from that candle and the ones before it only):
 * - technical: flat, RSI entering oversold (below 100 − rsiOverbought, having been at or above it the
 *   candle before) buys; long, it sells when RSI enters overbought (above rsiOverbought), at the stop
 *   loss (close at or below entry · (1 − stopLoss %)) or at the take profit (close at or above entry ·
 *   (1 + takeProfit %)). Stops are checked at candle closes, not between them.
 * - neural: flat, P(up) at or above confidenceThreshold % buys; long, P(down) at or above it sells.
 * - arbitrage: when the best pair's spread net of both fees exceeds minSpread, one ARBITRAGE signal:
 *   a round trip of maxPositionSize USD bought and sold at once, its return the net spread.
 * Round trips of technical and neural are paper: entry and exit at the signal candles' closes, less
 * the paper fee (TRADE_FEE_RATE) each way; arbitrage's are net of the two exchanges' fees.
 *
 * HOLD appends nothing; a candle at or before the last one evaluated appends nothing (a replay, two
 * engines racing: the signal id also derives from configId, symbol and candle time).
 */
import { assertNever, type Decider, type DomainEvent } from '../shared/decider';
import { TRADE_FEE_RATE } from '../trading/money';
import { bestArbitrage, type ArbitrageLeg, type ExchangeQuote } from './exchange-quotes';
import type { ArbitrageConfiguration, NeuralConfiguration, StrategyType, TechnicalConfiguration } from './strategy-catalogue';

export type StrategySignalType = 'BUY' | 'SELL' | 'ARBITRAGE';

/** The strategy's own trade, closed by the signal that carries it. Returns are percent. */
export interface StrategyRoundTrip {
  entryPrice: number;
  entryTime: string;
  exitPrice: number;
  exitTime: string;
  /** Before fees: whether the direction was right. */
  grossReturn: number;
  /** After fees: what the trade made. */
  netReturn: number;
}

export type StrategySignalGenerated = DomainEvent<
  'StrategySignalGenerated',
  {
    signalId: string;
    configId: string;
    configKey: string;
    strategyType: StrategyType;
    symbol: string;
    type: StrategySignalType;
    /** The candle's close (arbitrage: the buy exchange's quote). */
    price: number;
    /** Percent: how strongly the evidence passed its rule (see confidenceOf). */
    confidence: number;
    candleTime: string;
    /** Why, in words: the figures and the rule they passed. */
    reasons: string[];
    trade: StrategyRoundTrip | null;
    /**
     * ARBITRAGE: the pair, its size (the strategy's maxPositionSize) and profit at the quotes, and the
     * candle's close the quotes are a basis over (`referencePrice`: the bot applies each exchange's
     * basis to the market at its fill tick; absent on signals recorded before it).
     */
    arbitrage: (ArbitrageLeg & { sizeUsd: number; profitUsd: number; referencePrice?: number }) | null;
  }
>;
export type StrategySignalEvent = StrategySignalGenerated;

export type StrategySignalState = {
  lastCandleTime: string | null;
  position: { entryPrice: number; entryTime: string } | null;
};
export const initialStrategySignalState = (): StrategySignalState => ({ lastCandleTime: null, position: null });

export function evolveStrategySignal(state: StrategySignalState, event: StrategySignalEvent): StrategySignalState {
  const { type, price, candleTime } = event.data;
  if (type === 'BUY') return { lastCandleTime: candleTime, position: { entryPrice: price, entryTime: candleTime } };
  if (type === 'SELL') return { lastCandleTime: candleTime, position: null };
  return { ...state, lastCandleTime: candleTime };
}

/** What one evaluation read, per type: the figures of the candle just closed. */
export type StrategyInputs =
  | { strategyType: 'technical'; configuration: TechnicalConfiguration; rsi: number; previousRsi: number; close: number }
  | { strategyType: 'neural'; configuration: NeuralConfiguration; probabilityUp: number; close: number; model: string }
  | { strategyType: 'arbitrage'; configuration: ArbitrageConfiguration; quotes: ExchangeQuote[]; close: number };

export type EvaluateStrategy = {
  type: 'EvaluateStrategy';
  data: { signalId: string; configId: string; configKey: string; symbol: string; candleTime: string; inputs: StrategyInputs };
};

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const fmt = (x: number, digits = 2) => x.toFixed(digits);

export function paperRoundTrip(entry: { entryPrice: number; entryTime: string }, exitPrice: number, exitTime: string): StrategyRoundTrip {
  const gross = (exitPrice / entry.entryPrice - 1) * 100;
  const net = ((exitPrice * (1 - TRADE_FEE_RATE)) / (entry.entryPrice * (1 + TRADE_FEE_RATE)) - 1) * 100;
  return { entryPrice: entry.entryPrice, entryTime: entry.entryTime, exitPrice, exitTime, grossReturn: round(gross), netReturn: round(net) };
}

type Decision = { type: StrategySignalType; confidence: number; reasons: string[]; price: number; trade: StrategyRoundTrip | null; arbitrage: StrategySignalGenerated['data']['arbitrage'] } | null;

export function decideTechnical(inputs: Extract<StrategyInputs, { strategyType: 'technical' }>, state: StrategySignalState, candleTime: string): Decision {
  const { configuration: c, rsi, previousRsi, close } = inputs;
  if (!Number.isFinite(rsi) || !Number.isFinite(previousRsi)) return null;
  const oversold = 100 - c.rsiOverbought;
  const rsiText = `RSI(${c.rsiPeriod}) ${fmt(rsi, 1)}`;
  if (!state.position) {
    if (rsi < oversold && previousRsi >= oversold) {
      return { type: 'BUY', confidence: round(Math.min(100, 50 + (oversold - rsi) * 5), 1), price: close, reasons: [`${rsiText} entered oversold (below ${fmt(oversold, 1)})`], trade: null, arbitrage: null };
    }
    return null;
  }
  const { entryPrice } = state.position;
  const sell = (reason: string, confidence: number): Decision => ({ type: 'SELL', confidence: round(confidence, 1), price: close, reasons: [reason], trade: paperRoundTrip(state.position!, close, candleTime), arbitrage: null });
  const change = (close / entryPrice - 1) * 100;
  if (change <= -c.stopLoss) return sell(`Stop loss: close ${fmt(close)} is ${fmt(-change)}% below the entry ${fmt(entryPrice)} (stop ${fmt(c.stopLoss)}%)`, 100);
  if (change >= c.takeProfit) return sell(`Take profit: close ${fmt(close)} is ${fmt(change)}% above the entry ${fmt(entryPrice)} (target ${fmt(c.takeProfit)}%)`, 100);
  if (rsi > c.rsiOverbought && previousRsi <= c.rsiOverbought) {
    return sell(`${rsiText} entered overbought (above ${fmt(c.rsiOverbought, 1)})`, Math.min(100, 50 + (rsi - c.rsiOverbought) * 5));
  }
  return null;
}

export function decideNeural(inputs: Extract<StrategyInputs, { strategyType: 'neural' }>, state: StrategySignalState, candleTime: string): Decision {
  const { configuration: c, probabilityUp, close, model } = inputs;
  if (!Number.isFinite(probabilityUp)) return null;
  const up = probabilityUp * 100;
  const down = 100 - up;
  if (!state.position && up >= c.confidenceThreshold) {
    return { type: 'BUY', confidence: round(up, 1), price: close, reasons: [`${model} gives an up candle ${fmt(up, 1)}% (threshold ${fmt(c.confidenceThreshold, 1)}%)`], trade: null, arbitrage: null };
  }
  if (state.position && down >= c.confidenceThreshold) {
    return {
      type: 'SELL', confidence: round(down, 1), price: close,
      reasons: [`${model} gives a down candle ${fmt(down, 1)}% (threshold ${fmt(c.confidenceThreshold, 1)}%)`],
      trade: paperRoundTrip(state.position, close, candleTime), arbitrage: null,
    };
  }
  return null;
}

export function decideArbitrage(inputs: Extract<StrategyInputs, { strategyType: 'arbitrage' }>, candleTime: string): Decision {
  const { configuration: c, quotes, close } = inputs;
  const best = bestArbitrage(quotes);
  if (!best || best.netSpread <= c.minSpread) return null;
  const profitUsd = round((c.maxPositionSize * best.netSpread) / 100, 2);
  return {
    type: 'ARBITRAGE',
    confidence: 100,
    price: best.buyPrice,
    reasons: [`Buy on ${best.buyExchange} at ${fmt(best.buyPrice)}, sell on ${best.sellExchange} at ${fmt(best.sellPrice)}: spread ${fmt(best.grossSpread, 3)}%, ${fmt(best.netSpread, 3)}% after both fees (minimum ${fmt(c.minSpread)}%)`],
    trade: { entryPrice: best.buyPrice, entryTime: candleTime, exitPrice: best.sellPrice, exitTime: candleTime, grossReturn: round(best.grossSpread), netReturn: round(best.netSpread) },
    arbitrage: { ...best, grossSpread: round(best.grossSpread), netSpread: round(best.netSpread), sizeUsd: c.maxPositionSize, profitUsd, referencePrice: close },
  };
}

export function evaluateStrategy(command: EvaluateStrategy, state: StrategySignalState): StrategySignalEvent[] {
  const { signalId, configId, configKey, symbol, candleTime, inputs } = command.data;
  // Stryker disable next-line ConditionalExpression: equivalent as `true`, with no candle yet (null) a time compared with null is false (the text reads as NaN), so nothing is skipped either way; `false` (never skipped) and the time test as `true` (all skipped) are also the `===` and `>` mutants' cases, which stay.
  if (state.lastCandleTime !== null && candleTime <= state.lastCandleTime) return [];
  let decision: Decision;
  switch (inputs.strategyType) {
    case 'technical':
      decision = decideTechnical(inputs, state, candleTime);
      break;
    case 'neural':
      decision = decideNeural(inputs, state, candleTime);
      break;
    case 'arbitrage':
      decision = decideArbitrage(inputs, candleTime);
      break;
    default:
      return assertNever(inputs);
  }
  if (!decision) return [];
  return [{ type: 'StrategySignalGenerated', data: { signalId, configId, configKey, strategyType: inputs.strategyType, symbol, candleTime, ...decision } }];
}

export const strategySignalDecider: Decider<StrategySignalState, EvaluateStrategy, StrategySignalEvent> = {
  name: 'strategy-signals',
  schemaVersion: 1,
  initialState: initialStrategySignalState,
  evolve: evolveStrategySignal,
  decide: (command, state) => evaluateStrategy(command, state),
};

export const strategySignalsStreamId = (configId: string, symbol: string) => `strategy-signals-${configId}-${symbol.toUpperCase()}`;
