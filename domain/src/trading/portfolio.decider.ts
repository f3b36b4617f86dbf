/**
 * Commands on `portfolio-{userId}`:
 * - PlaceSimulatedTrade: a manual trade (POST /api/trades) or the trading bot's, with TRADE_FEE_RATE.
 *   The first command opens the portfolio. With `market` (every live caller since issue 17) the price
 *   is the mid the caller read at market.filledAt (the path's tick) and the fill pays the half spread
 *   and the impact on top (engine/fills.ts), recorded as the event's `execution`; without it the price
 *   is the fill price as given (a price decided elsewhere: specs, imports).
 *   A BUY may carry its position's exit plan (`exits`: the bot's follows the profile with the market
 *   figures at entry; a manual one the stop and target percents its person chose, turned into price
 *   levels at the fill price, costs included, here; none: no automatic exit) and a bot trade its
 *   decision record.
 * - ClosePosition: the risk monitor closes a whole position at its stop loss or take profit: with
 *   `market`, at the crossing tick's mid less the half spread and impact (engine/exit-scan.ts); without
 *   it, at the price given.
 * Sales take FIFO lots (portfolio.ts); each event records the lots it took.
 * - PlaceArbitragePair: the bot's round trip on an arbitrage strategy's signal (issue 19): `amount`
 *   coins bought at the cheaper exchange's quote and the same amount sold at the dearer one's, at once,
 *   as two SimulatedTradePlaced events (BUY leg, then SELL leg) sharing a pair id; each leg pays its
 *   exchange's fee (engine/pair-fills.ts) and, with `market`, the fill costs of any order. The SELL leg
 *   takes exactly the BUY leg's lot (lotRule PAIR) and realises the net spread; the position is as it
 *   was before the pair. Refused (409) when the BUY leg's cost with its fee is more than the cash.
 *   Replays append nothing (either leg's id remembered); the pair neither reads nor moves the coin's
 *   signal watermark, as it holds nothing.
 * - ResetPortfolio: back to the starting cash, recording what it closed.
 * - RecordPortfolioPeak: the risk monitor saw the portfolio worth `valueMicros`; appended only when
 *   that is at least PEAK_STEP above the recorded peak, so a rising market writes an event per quarter
 *   percent of value, not one per tick (the drawdown may read up to that much low).
 */
import { parseTime } from '../shared/time-memo';
import { findCoinBySymbol } from '../market/coins';
import { manualExitBounds, type BotDecision } from './contracts';
import { requireBotDecision } from './bot-decision-check';
import { NO_EXITS, type ExitPlan } from './stop-levels';
import { assertNever, type Decider } from '../shared/decider';
import { IllegalStateError, ValidationError } from '../shared/errors';
import {
  feeMicros,
  MICROS_PER_USD,
  notionalMicros,
  requirePositiveFinite,
  requireQuantityUnits,
  STARTING_CASH_MICROS,
  unitsToQuantity,
  microsToUsd,
} from './money';
import { usdText } from './money-text';
import { executionOf, type Execution, type FillMarket } from './engine/fills';
import { pairFills, type PairLegQuote } from './engine/pair-fills';
import { exchangeIdSchema, exchangeInfo } from '../exchanges/exchanges';
import { STRATEGIES } from '../strategies/strategy-catalogue';
import {
  evolvePortfolio,
  initialPortfolioState,
  LOT_RULE,
  lotsOf,
  peakOf,
  PORTFOLIO_SCHEMA_VERSION,
  remembersTradeId,
  upcastPortfolioEvent,
  type CloseReason,
  type PortfolioEvent,
  type PortfolioState,
  type Position,
  type SimulatedTradePlaced,
  type SoldLot,
  type TradeSide,
  type TradeSource,
} from './portfolio';

/** Prices above this are refused (a typo, or a feed gone mad), so every notional stays a safe integer. */
export const MAX_PRICE_USD = 1_000_000_000;
/** A fill worth less than a cent is refused: it would round to a fee of zero and mean nothing. */
export const MIN_TRADE_VALUE_MICROS = MICROS_PER_USD / 100;
/** A fill worth more than a billion dollars is refused, so cash and cost bases stay safe integers. */
export const MAX_TRADE_VALUE_MICROS = 1_000_000_000 * MICROS_PER_USD;

function requireTradeValue(notional: number): number {
  if (notional < MIN_TRADE_VALUE_MICROS) throw new ValidationError(`a trade must be worth at least $0.01, this one is worth $${microsToUsd(notional)}`, { field: 'amount' });
  if (!(notional <= MAX_TRADE_VALUE_MICROS)) throw new ValidationError(`a trade must be worth at most ${usd(MAX_TRADE_VALUE_MICROS)}`, { field: 'amount' });
  return notional;
}

export type PlaceSimulatedTrade = {
  type: 'PlaceSimulatedTrade';
  data: {
    userId: string;
    /** Chosen by the caller: the bot derives it from the signal and the user (tradeIdFor), a route from its Idempotency-Key or a fresh UUID. */
    tradeId: string;
    /** A supported coin's symbol, any case. */
    symbol: string;
    side: TradeSide;
    /** The quantity of coin (the API's and the trade history's `amount`). */
    amount: number;
    /** With `market`: the mid the caller read at market.filledAt (the fill adds the costs); without: the fill price. USD per coin. */
    price: number;
    source: TradeSource;
    /** Where the order met the market (see the module comment). */
    market?: FillMarket;
    /** BUY only: how the position exits (absent: no automatic exit). */
    exits?: ExitRequest;
    /** The bot's record of what decided this trade. */
    decision?: BotDecision;
  };
  metadata: { now: string };
};

/** A BUY's exit plan as asked: the profile's with the figures at entry, or a person's percents (either may be null). */
export type ExitRequest = { kind: 'PROFILE'; atr: number | null; sigma: number | null } | { kind: 'MANUAL'; stopLossPercent: number | null; takeProfitPercent: number | null };

/** Peaks closer than this fraction above the recorded one are not recorded (see the module comment). */
export const PEAK_STEP = 0.0025;

export type RecordPortfolioPeak = { type: 'RecordPortfolioPeak'; data: { userId: string; valueMicros: number }; metadata: { now: string } };

export type ClosePosition = {
  type: 'ClosePosition';
  data: {
    userId: string;
    /** The position meant (its opening BUY's id): a position opened later on the same coin is not closed by a stale command. */
    positionId: string;
    symbol: string;
    reason: CloseReason;
    /** With `market`: the crossing tick's mid (the fill takes the costs off); without: the fill price. */
    price: number;
    /** The crossing tick: when, the minute's volume, the level crossed. */
    market?: FillMarket;
  };
  metadata: { now: string };
};

export type ResetPortfolio = { type: 'ResetPortfolio'; data: { userId: string }; metadata: { now: string } };

export type PlaceArbitragePair = {
  type: 'PlaceArbitragePair';
  data: {
    userId: string;
    /** The pair's id (the bot's trade id for the signal and user), and each leg's trade id. */
    pairId: string;
    buyTradeId: string;
    sellTradeId: string;
    symbol: string;
    /** Coins bought and sold (the same amount both legs). */
    amount: number;
    /** Each leg's exchange and quote (with `market`: the mid its fill costs are added to). */
    buy: PairLegQuote;
    sell: PairLegQuote;
    source: TradeSource;
    /** Where both legs met the market: the fill tick, the minute's volume, when they were meant to fill. */
    market?: FillMarket;
    decision?: BotDecision;
  };
  metadata: { now: string };
};

export type PortfolioCommand = PlaceSimulatedTrade | ClosePosition | ResetPortfolio | RecordPortfolioPeak | PlaceArbitragePair;

type OpenPortfolio = Extract<PortfolioState, { status: 'open' }>;

function requireCoin(symbol: string) {
  const coin = typeof symbol === 'string' ? findCoinBySymbol(symbol) : undefined;
  if (!coin) throw new ValidationError(`symbol must be a supported coin, got ${JSON.stringify(symbol)}`, { field: 'symbol' });
  return coin;
}

function requirePrice(price: number): number {
  requirePositiveFinite('price', price);
  if (price > MAX_PRICE_USD) throw new ValidationError(`price must be at most ${MAX_PRICE_USD}, got ${price}`, { field: 'price' });
  return price;
}

function requireTime(field: string, value: unknown): string {
  if (typeof value !== 'string' || Number.isNaN(parseTime(value))) throw new ValidationError(`${field} must be an ISO-8601 time`, { field });
  return value;
}

/**
 * A command's market, checked (its callers are the workers and routes, but a bad figure must never reach
 * an event). `withLevel`: a stop loss or take profit close, whose market has the level that fired; any
 * other fill's market has none.
 */
function requireMarket(market: FillMarket | undefined, withLevel: boolean): FillMarket | undefined {
  if (market === undefined) return undefined;
  if (typeof market !== 'object' || market === null) throw new ValidationError('market must be an object', { field: 'market' });
  const checked: FillMarket = { filledAt: requireTime('market.filledAt', market.filledAt), minuteVolumeUsd: market.minuteVolumeUsd };
  if (typeof market.minuteVolumeUsd !== 'number' || !Number.isFinite(market.minuteVolumeUsd) || market.minuteVolumeUsd < 0) {
    throw new ValidationError(`market.minuteVolumeUsd must be a finite number of at least 0, got ${String(market.minuteVolumeUsd)}`, { field: 'market.minuteVolumeUsd' });
  }
  if (market.intendedAt !== undefined) checked.intendedAt = requireTime('market.intendedAt', market.intendedAt);
  if (withLevel) checked.level = requirePositiveFinite('market.level', market.level as number);
  else if (market.level !== undefined) throw new ValidationError('market.level belongs to a stop loss or take profit close', { field: 'market.level' });
  return checked;
}

function requireText(field: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ValidationError(`${field} is required`, { field });
  return value;
}

function requireSource(source: TradeSource): TradeSource {
  if (source?.kind === 'MANUAL') return source;
  if (source?.kind === 'SIGNAL') {
    requireText('source.eventId', source.eventId);
    requireText('source.signalId', source.signalId);
    if (typeof source.candleTime !== 'string' || Number.isNaN(parseTime(source.candleTime))) throw new ValidationError('source.candleTime must be an ISO-8601 time', { field: 'source.candleTime' });
    if (source.strategy !== undefined) {
      const known = STRATEGIES.find((s) => s.id === source.strategy?.strategyId);
      if (!known || known.type !== source.strategy.strategyType) {
        throw new ValidationError(`source.strategy must name a strategy and its type, got ${JSON.stringify(source.strategy)}`, { field: 'source.strategy' });
      }
    }
    return source;
  }
  throw new ValidationError('source must be MANUAL or SIGNAL', { field: 'source' });
}

/** Opens the portfolio when this is its first use; the events to prepend and the state to decide on. */
function ensureOpen(state: PortfolioState, userId: string, now: string): { opening: PortfolioEvent[]; open: OpenPortfolio } {
  if (state.status === 'open') return { opening: [], open: state };
  const opening: PortfolioEvent[] = [{ type: 'PortfolioOpened', data: { userId, startingCashMicros: STARTING_CASH_MICROS, openedAt: now } }];
  const open = opening.reduce(evolvePortfolio, state);
  if (open.status !== 'open') throw new Error('PortfolioOpened did not open the portfolio');
  return { opening, open };
}

function alreadyPlaced(state: PortfolioState, tradeId: string, symbol: string, source: TradeSource): boolean {
  if (state.status !== 'open') return false;
  if (remembersTradeId(state, tradeId)) return true;
  for (const symbol in state.positions) if (state.positions[symbol as keyof typeof state.positions]?.openTradeIds.includes(tradeId)) return true;
  if (source.kind === 'SIGNAL') {
    const last = state.lastSignalTraded[symbol as keyof typeof state.lastSignalTraded];
    if (last !== undefined && parseTime(source.candleTime) <= parseTime(last)) return true;
  }
  return false;
}

/**
 * FIFO: `units` taken from the position's lots, oldest first: the whole of each lot it empties (its
 * cost and entry notional to the micro) and of the last lot it touches a share pro rata, rounded to
 * the micro once. What the sale closed is what it took; the lots it emptied are CLOSED.
 */
function takeLots(position: Position, units: number) {
  const lots: SoldLot[] = [];
  const closedTradeIds: string[] = [];
  let left = units;
  for (const lot of lotsOf(position)) {
    if (left <= 0) break;
    const take = Math.min(left, lot.units);
    const all = take === lot.units;
    lots.push({
      tradeId: lot.tradeId,
      quantity: unitsToQuantity(take),
      entryPrice: lot.price,
      costMicros: all ? lot.costMicros : Math.round((lot.costMicros * take) / lot.units),
      entryNotionalMicros: all ? lot.entryNotionalMicros : Math.round((lot.entryNotionalMicros * take) / lot.units),
    });
    if (all) closedTradeIds.push(lot.tradeId);
    left -= take;
  }
  return {
    lots,
    closedTradeIds,
    costBasis: lots.reduce((sum, l) => sum + l.costMicros, 0),
    entryNotional: lots.reduce((sum, l) => sum + l.entryNotionalMicros, 0),
  };
}

const usd = (micros: number) => usdText(microsToUsd(micros));

/** The event's `execution`, only when there is one (events of commands without a market keep their old shape). */
const executionField = (execution: Execution | undefined): { execution?: Execution } => (execution ? { execution } : {});

const optionalFigure = (field: string, value: unknown): number | null => {
  if (value === null) return null;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) throw new ValidationError(`${field} must be a positive number or null`, { field });
  return value;
};

function percentWithin(field: 'stopLossPercent' | 'takeProfitPercent', value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const { min, max } = manualExitBounds[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw new ValidationError(`${field} must be a number from ${min} to ${max}`, { field });
  return value;
}

/** The plan a BUY at `price` records: a manual one's percents become price levels at the fill price. */
function exitPlanOf(request: ExitRequest | undefined, price: number): ExitPlan {
  if (request === undefined) return NO_EXITS;
  if (request.kind === 'PROFILE') return { kind: 'PROFILE', atr: optionalFigure('exits.atr', request.atr), sigma: optionalFigure('exits.sigma', request.sigma) };
  if (request.kind !== 'MANUAL') throw new ValidationError('exits must be PROFILE or MANUAL', { field: 'exits' });
  const stopLossPercent = percentWithin('stopLossPercent', request.stopLossPercent);
  const takeProfitPercent = percentWithin('takeProfitPercent', request.takeProfitPercent);
  if (stopLossPercent === null && takeProfitPercent === null) return NO_EXITS;
  return {
    kind: 'MANUAL',
    stopLoss: stopLossPercent === null ? null : price * (1 - stopLossPercent / 100),
    takeProfit: takeProfitPercent === null ? null : price * (1 + takeProfitPercent / 100),
    stopLossPercent,
    takeProfitPercent,
  };
}

function decisionOf(decision: BotDecision | undefined): { decision?: BotDecision } {
  return decision === undefined ? {} : { decision: requireBotDecision(decision) };
}

export function placeSimulatedTrade(command: PlaceSimulatedTrade, state: PortfolioState): PortfolioEvent[] {
  const { userId, tradeId, side, amount } = command.data;
  requireText('tradeId', tradeId);
  const coin = requireCoin(command.data.symbol);
  if (side !== 'BUY' && side !== 'SELL') throw new ValidationError(`side must be BUY or SELL, got ${JSON.stringify(side)}`, { field: 'side' });
  const units = requireQuantityUnits('amount', amount);
  const mid = requirePrice(command.data.price);
  const source = requireSource(command.data.source);
  if (source.kind === 'SIGNAL' && source.signalType === 'ARBITRAGE') throw new ValidationError('an arbitrage signal trades as a pair (PlaceArbitragePair)', { field: 'source.signalType' });
  const market = requireMarket(command.data.market, false);
  const now = command.metadata.now;
  if (side === 'SELL' && command.data.exits !== undefined) throw new ValidationError('a stop loss or take profit applies to a BUY only', { field: 'exits' });
  const quantity = unitsToQuantity(units);
  const { price, execution } = market ? executionOf(coin.id, side, mid, quantity, market) : { price: mid, execution: undefined };
  // A manual stop or target is a percent of the entry the person pays: the fill price, costs included.
  const exits = side === 'BUY' ? exitPlanOf(command.data.exits, price) : undefined;
  const decision = decisionOf(command.data.decision);

  if (alreadyPlaced(state, tradeId, coin.symbol, source)) return [];

  const notional = requireTradeValue(notionalMicros(units, price));
  const fee = feeMicros(notional);
  const { opening, open } = ensureOpen(state, userId, now);
  // Built field by field, in the event's order (object spreads here were a tenth of a backtest's time).
  const placed = (costBasisClosedMicros: number, entryNotionalClosedMicros: number, realisedPnlMicros: number, closedTradeIds: string[], lots: SoldLot[]): SimulatedTradePlaced['data'] => {
    const data: SimulatedTradePlaced['data'] = execution
      ? { userId, tradeId, coinId: coin.id, symbol: coin.symbol, side, quantity, price, notionalMicros: notional, feeMicros: fee, source, execution, placedAt: now, costBasisClosedMicros, entryNotionalClosedMicros, realisedPnlMicros, closedTradeIds, lotRule: LOT_RULE, lots }
      : { userId, tradeId, coinId: coin.id, symbol: coin.symbol, side, quantity, price, notionalMicros: notional, feeMicros: fee, source, placedAt: now, costBasisClosedMicros, entryNotionalClosedMicros, realisedPnlMicros, closedTradeIds, lotRule: LOT_RULE, lots };
    if (exits) data.exits = exits;
    if (decision.decision) data.decision = decision.decision;
    return data;
  };

  if (side === 'BUY') {
    if (notional + fee > open.cashMicros) {
      // With a market the fill is above the price on the person's screen: say by how much, so a BUY of
      // exactly the cash at that price reads as what it is.
      const at = execution ? ` at ${usdText(price)} (the market price ${usdText(mid)} plus the spread and impact)` : '';
      throw new IllegalStateError(`Insufficient paper cash: buying ${quantity} ${coin.symbol}${at} costs ${usd(notional + fee)} with the fee, cash is ${usd(open.cashMicros)}`, { field: 'amount' });
    }
    return [
      ...opening,
      { type: 'SimulatedTradePlaced', data: placed(0, 0, 0, [], []) },
    ];
  }

  const held = open.positions[coin.symbol];
  if (!held || units > held.units) {
    throw new IllegalStateError(`Cannot sell ${quantity} ${coin.symbol}: holding ${unitsToQuantity(held?.units ?? 0)}`, { field: 'amount' });
  }
  const taken = takeLots(held, units);
  return [
    ...opening,
    { type: 'SimulatedTradePlaced', data: placed(taken.costBasis, taken.entryNotional, notional - fee - taken.costBasis, taken.closedTradeIds, taken.lots) },
  ];
}

function requireLeg(field: 'buy' | 'sell', leg: PairLegQuote): PairLegQuote {
  if (typeof leg !== 'object' || leg === null) throw new ValidationError(`${field} must be an exchange and its quote`, { field });
  const exchange = exchangeIdSchema.safeParse(leg.exchange);
  if (!exchange.success) throw new ValidationError(`${field}.exchange: ${exchange.error.issues.map((i) => i.message).join('; ')}`, { field: `${field}.exchange` });
  requirePositiveFinite(`${field}.mid`, leg.mid);
  if (leg.mid > MAX_PRICE_USD) throw new ValidationError(`${field}.mid must be at most ${MAX_PRICE_USD}, got ${leg.mid}`, { field: `${field}.mid` });
  return { exchange: exchange.data, mid: leg.mid };
}

export function placeArbitragePair(command: PlaceArbitragePair, state: PortfolioState): PortfolioEvent[] {
  const { userId, pairId, buyTradeId, sellTradeId, amount } = command.data;
  requireText('pairId', pairId);
  requireText('buyTradeId', buyTradeId);
  requireText('sellTradeId', sellTradeId);
  if (buyTradeId === sellTradeId) throw new ValidationError('the two legs need two trade ids', { field: 'sellTradeId' });
  const coin = requireCoin(command.data.symbol);
  const units = requireQuantityUnits('amount', amount);
  const buy = requireLeg('buy', command.data.buy);
  const sell = requireLeg('sell', command.data.sell);
  if (buy.exchange === sell.exchange) throw new ValidationError('an arbitrage pair buys and sells on two exchanges', { field: 'sell.exchange' });
  const source = requireSource(command.data.source);
  if (source.kind !== 'SIGNAL' || source.signalType !== 'ARBITRAGE') throw new ValidationError("an arbitrage pair follows an ARBITRAGE signal", { field: 'source' });
  const market = requireMarket(command.data.market, false);
  const decision = decisionOf(command.data.decision);
  const now = command.metadata.now;

  if (state.status === 'open' && (remembersTradeId(state, buyTradeId) || remembersTradeId(state, sellTradeId))) return [];

  const quantity = unitsToQuantity(units);
  const fills = pairFills(coin.id, units, buy, sell, market);
  requireTradeValue(fills.buy.notionalMicros);
  requireTradeValue(fills.sell.notionalMicros);
  const { opening, open } = ensureOpen(state, userId, now);
  if (fills.buyCostMicros > open.cashMicros) {
    throw new IllegalStateError(
      `Insufficient paper cash: buying ${quantity} ${coin.symbol} on ${exchangeInfo(buy.exchange).name} at ${usdText(fills.buy.price)} costs ${usd(fills.buyCostMicros)} with its fee, cash is ${usd(open.cashMicros)}`,
      { field: 'amount' },
    );
  }
  const base = { userId, coinId: coin.id, symbol: coin.symbol, quantity, source, placedAt: now, lotRule: 'PAIR' as const, ...decision };
  const leg = (f: typeof fills.buy) => ({ price: f.price, notionalMicros: f.notionalMicros, feeMicros: f.feeMicros, ...executionField(f.execution), pair: { pairId, leg: f.side, exchange: f.exchange, feeRate: f.feeRate } });
  return [
    ...opening,
    {
      type: 'SimulatedTradePlaced',
      data: { ...base, tradeId: buyTradeId, side: 'BUY', ...leg(fills.buy), costBasisClosedMicros: 0, entryNotionalClosedMicros: 0, realisedPnlMicros: 0, closedTradeIds: [], lots: [], exits: NO_EXITS },
    },
    {
      type: 'SimulatedTradePlaced',
      data: {
        ...base,
        tradeId: sellTradeId,
        side: 'SELL',
        ...leg(fills.sell),
        costBasisClosedMicros: fills.buyCostMicros,
        entryNotionalClosedMicros: fills.buy.notionalMicros,
        realisedPnlMicros: fills.realisedPnlMicros,
        closedTradeIds: [buyTradeId],
        lots: [{ tradeId: buyTradeId, quantity, entryPrice: fills.buy.price, costMicros: fills.buyCostMicros, entryNotionalMicros: fills.buy.notionalMicros }],
      },
    },
  ];
}

/** Whether a portfolio worth `valueMicros` is a new peak to record: at least PEAK_STEP above the recorded one. */
export function raisesPeak(state: Extract<PortfolioState, { status: 'open' }>, valueMicros: number): boolean {
  return valueMicros >= peakOf(state) * (1 + PEAK_STEP);
}

export function recordPortfolioPeak(command: RecordPortfolioPeak, state: PortfolioState): PortfolioEvent[] {
  const value = command.data.valueMicros;
  if (!Number.isSafeInteger(value) || value <= 0) throw new ValidationError('valueMicros must be a positive whole number of micro-dollars', { field: 'valueMicros' });
  // Stryker disable next-line ConditionalExpression: equivalent as `false`, the only other state (unopened) has no starting cash, so its peak reads undefined and no value raises it (a comparison with NaN); `true` (never a peak) stays guarded by the raisesPeak mutants and the peak specs.
  if (state.status !== 'open') return [];
  if (!raisesPeak(state, value)) return [];
  return [{ type: 'PortfolioPeakRecorded', data: { userId: command.data.userId, valueMicros: value, recordedAt: command.metadata.now } }];
}

export function closePosition(command: ClosePosition, state: PortfolioState): PortfolioEvent[] {
  const { userId, positionId, reason } = command.data;
  requireText('positionId', positionId);
  const coin = requireCoin(command.data.symbol);
  if (reason !== 'STOP_LOSS' && reason !== 'TAKE_PROFIT') throw new ValidationError(`reason must be STOP_LOSS or TAKE_PROFIT, got ${JSON.stringify(reason)}`, { field: 'reason' });
  const mid = requirePrice(command.data.price);
  const market = requireMarket(command.data.market, true);
  if (state.status !== 'open') return [];
  const held = state.positions[coin.symbol];
  // Already closed (by a sell, an earlier close, a reset), or another position since: nothing to do,
  // so a risk monitor that replays its commands after a restart closes nothing twice.
  if (!held || held.positionId !== positionId) return [];
  // No minimum here: a stop must close whatever is left, however small.
  const { price, execution } = market ? executionOf(coin.id, 'SELL', mid, unitsToQuantity(held.units), market) : { price: mid, execution: undefined };
  const notional = notionalMicros(held.units, price);
  if (!(notional <= MAX_TRADE_VALUE_MICROS)) throw new ValidationError(`a close must be worth at most ${usd(MAX_TRADE_VALUE_MICROS)}`, { field: 'price' });
  const fee = feeMicros(notional);
  const taken = takeLots(held, held.units);
  return [
    {
      type: 'PositionClosed',
      data: {
        userId,
        positionId,
        coinId: coin.id,
        symbol: coin.symbol,
        reason,
        quantity: unitsToQuantity(held.units),
        price,
        notionalMicros: notional,
        feeMicros: fee,
        costBasisClosedMicros: taken.costBasis,
        entryNotionalClosedMicros: taken.entryNotional,
        realisedPnlMicros: notional - fee - taken.costBasis,
        closedTradeIds: taken.closedTradeIds,
        lotRule: LOT_RULE,
        lots: taken.lots,
        ...executionField(execution),
        closedAt: command.metadata.now,
      },
    },
  ];
}

export function resetPortfolio(command: ResetPortfolio, state: PortfolioState): PortfolioEvent[] {
  // Never used, or nothing changed since it opened or was last reset: already at the starting cash.
  if (state.status !== 'open') return [];
  const positions = Object.values(state.positions).filter((p): p is Position => p !== undefined);
  if (positions.length === 0 && state.cashMicros === STARTING_CASH_MICROS && state.realisedPnlMicros === 0) return [];
  return [
    {
      type: 'PortfolioReset',
      data: {
        userId: command.data.userId,
        closedPositions: positions.map((p) => ({
          positionId: p.positionId,
          coinId: p.coinId,
          symbol: p.symbol,
          quantity: unitsToQuantity(p.units),
          costBasisMicros: p.costBasisMicros,
          entryNotionalMicros: p.entryNotionalMicros,
        })),
        closedTradeIds: positions.flatMap((p) => p.openTradeIds),
        cashBeforeMicros: state.cashMicros,
        realisedPnlBeforeMicros: state.realisedPnlMicros,
        startingCashMicros: STARTING_CASH_MICROS,
        resetAt: command.metadata.now,
      },
    },
  ];
}

export const portfolioDecider: Decider<PortfolioState, PortfolioCommand, PortfolioEvent> = {
  name: 'portfolio',
  schemaVersion: PORTFOLIO_SCHEMA_VERSION,
  initialState: initialPortfolioState,
  evolve: evolvePortfolio,
  upcast: upcastPortfolioEvent,
  decide(command, state) {
    switch (command.type) {
      case 'PlaceSimulatedTrade':
        return placeSimulatedTrade(command, state);
      case 'ClosePosition':
        return closePosition(command, state);
      case 'ResetPortfolio':
        return resetPortfolio(command, state);
      case 'RecordPortfolioPeak':
        return recordPortfolioPeak(command, state);
      case 'PlaceArbitragePair':
        return placeArbitragePair(command, state);
      default:
        return assertNever(command);
    }
  },
};
