/**
 * The trading read models (trading-view.ts) valued at live prices into the responses of
 * read-contracts.ts. Pure: query-api passes the documents, the prices and the time in.
 *
 * Rounding: every dollar figure is a whole number of cents, rounded once (half away from zero) from
 * exact integer micro-dollars; sums and differences are taken of the rounded cents, so what the
 * response lists adds up to what it totals (portfolio-valuation.ts does the same for the portfolio).
 * A trade's pnl is rounded as the portfolio rounds it (a closing trade's realised P&L; an open BUY's
 * lot valued and costed to the cent), so the trades' pnl add up to the portfolio's realised +
 * unrealised P&L to the cent. Percentages are computed from exact micros and rounded when sent.
 *
 * Daily P&L: the value now minus the value when the UTC day began (or when a reset today started the
 * account over): the cash and positions held at 00:00 UTC (recorded by the projection on the day's
 * first event) valued at the prices of 00:00 UTC. Since trades only move value between cash and
 * positions (fees aside, which are losses), that is the P&L realised today plus the change of the
 * unrealised P&L since the day began. When the price at 00:00 UTC of a coin held then is unknown,
 * today's price is used for it, so its move today counts as zero rather than as a guess.
 */
import type { SignalCounts } from '../signals/contracts';
import type { CoinSymbol } from '../market/coins';
import { drawdownPercent, drawdownStopsEntries } from './entry-rules';
import { centsToUsd, feeMicros, MICROS_PER_USD, microsToCents, notionalMicros, quantityToUnits, unitsToQuantity } from './money';
import { exitsOf, initialPortfolioState, peakOf, tradeSourceLabel, type Position } from './portfolio';
import { isStanding } from './risk';
import { roundPercent, valuePortfolio, type PortfolioValuation, type Prices } from './portfolio-valuation';
import { emptyCoinContext, type CoinContext } from './risk-watch';
import type {
  ActiveRiskTrade,
  PortfolioResponse,
  RiskAlertsResponse,
  RiskParametersResponse,
  RiskResponse,
  Trade,
  TradeSummary,
} from './read-contracts';
import { exitLevels, stopRuleText, usdText } from './stop-levels';
import { dayStartAt, portfolioStateOf, riskProfileOf, summaryRealisedCents, type PortfolioView, type RiskView, type TradeSummaryCounts, type TradeView } from './trading-view';
import { botSettingsView, DEFAULT_RISK_PROFILE, stopLossUnits, type RiskProfile } from './contracts';
import { botSettingsOf, parametersOf } from './risk-profile';

/** A percent rounded to 2 decimals; 0 of a zero whole. */
export const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

export interface DailyPnl {
  /** When the day (or the reset that started it over) began, ISO-8601. */
  startedAt: string;
  startValueCents: number;
  dailyPnlCents: number;
  realisedTodayCents: number;
}

/** The coins whose price at the day's start the daily P&L needs (none when nothing was held then). */
export function dayStartNeeds(view: PortfolioView | null, now: Date): { startedAt: string; symbols: CoinSymbol[] } | null {
  if (!view) return null;
  const start = dayStartAt(view, now);
  return start.positions.length === 0 ? null : { startedAt: start.startedAt, symbols: start.positions.map((p) => p.symbol) };
}

export function valueView(view: PortfolioView | null, prices: Prices): PortfolioValuation {
  return valuePortfolio(view ? portfolioStateOf(view) : initialPortfolioState(), prices);
}

export function dailyPnl(view: PortfolioView | null, valuation: PortfolioValuation, prices: Prices, dayStartPrices: Prices, now: Date): DailyPnl {
  const totalCents = Math.round(valuation.totalValue * 100);
  if (!view) return { startedAt: `${now.toISOString().slice(0, 10)}T00:00:00.000Z`, startValueCents: totalCents, dailyPnlCents: 0, realisedTodayCents: 0 };
  const start = dayStartAt(view, now);
  let startValueCents = microsToCents(start.cashMicros);
  for (const held of start.positions) {
    const price = knownPrice(dayStartPrices[held.symbol]) ?? knownPrice(prices[held.symbol]);
    // Neither price known: at cost, as the valuation does for a position without a price. Valued lot
    // by lot, as the valuation values now, so a day without trades or moves counts zero to the cent.
    if (price === undefined) startValueCents += microsToCents(held.costBasisMicros);
    else for (const units of held.lotUnits ?? [held.units]) startValueCents += microsToCents(notionalMicros(units, price));
  }
  return { startedAt: start.startedAt, startValueCents, dailyPnlCents: totalCents - startValueCents, realisedTodayCents: microsToCents(start.realisedPnlMicros) };
}

// Stryker disable next-line ConditionalExpression: equivalent, undefined is not finite either (the check narrows the type)
const knownPrice = (price: number | undefined) => (price !== undefined && Number.isFinite(price) && price > 0 ? price : undefined);

export interface PortfolioReadInput {
  view: PortfolioView | null;
  prices: Prices;
  dayStartPrices: Prices;
  latestPrice: PortfolioResponse['latestPrice'];
  signalCounts: SignalCounts;
  demo: boolean;
  now: Date;
}

export function portfolioResponse(input: PortfolioReadInput): PortfolioResponse {
  const valuation = valueView(input.view, input.prices);
  const daily = dailyPnl(input.view, valuation, input.prices, input.dayStartPrices, input.now);
  const positions = [...valuation.positions].sort((a, b) => b.marketValue - a.marketValue || a.symbol.localeCompare(b.symbol));
  return {
    demo: input.demo,
    startingCash: valuation.startingCash,
    totalValue: valuation.totalValue,
    cash: valuation.cash,
    positionsValue: valuation.positionsValue,
    dailyPnL: centsToUsd(daily.dailyPnlCents),
    dailyPnLPercent: percentOf(daily.dailyPnlCents, daily.startValueCents),
    realisedPnlToday: centsToUsd(daily.realisedTodayCents),
    totalPnl: valuation.totalPnl,
    totalPnlPercent: valuation.totalPnlPercent,
    realisedPnl: valuation.realisedPnl,
    unrealisedPnl: valuation.unrealisedPnl,
    ethHoldings: valuation.positions.find((p) => p.symbol === 'ETH')?.quantity ?? 0,
    latestPrice: input.latestPrice,
    signalCounts: input.signalCounts,
    positions: positions.map((p) => ({
      positionId: p.positionId,
      symbol: p.symbol,
      coinId: p.coinId,
      quantity: p.quantity,
      averageEntryPrice: p.avgEntryPrice,
      price: p.currentPrice,
      priceKnown: p.priceKnown,
      costBasis: p.costBasis,
      marketValue: p.marketValue,
      unrealisedPnl: p.unrealisedPnl,
      unrealisedPnlPercent: roundPercent(p.unrealisedPnlPercent),
      openedAt: p.openedAt,
    })),
    valuedAt: input.now.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// trades

/** How a manual trade's source reads; its `signal` is null (the spec's blank signal). */
const MANUAL_SOURCE = tradeSourceLabel({ kind: 'MANUAL' });

export function tradeResponse(view: TradeView, prices: Prices): Trade {
  const quantity = unitsToQuantity(view.units);
  const buy = view.type === 'BUY';
  // A BUY's lot: what it still holds and what that cost (documents from before lots: all it bought).
  const heldUnits = buy ? (view.heldUnits ?? (view.status === 'OPEN' ? view.units : 0)) : 0;
  // (A CLOSED BUY has no price below, so what it held no longer counts.)
  const heldCost = buy ? (view.heldCostMicros ?? view.costMicros) : 0;
  const price = view.status === 'OPEN' ? knownPrice(prices[view.symbol]) : undefined;
  let pnl: number | null = null;
  if (view.realisedPnlMicros !== null) pnl = centsToUsd(microsToCents(view.realisedPnlMicros));
  else if (price !== undefined) pnl = centsToUsd(microsToCents(notionalMicros(heldUnits, price)) - microsToCents(heldCost));
  return {
    id: view.tradeId,
    type: view.type,
    symbol: view.symbol,
    coinId: view.coinId,
    amount: quantity,
    quantity,
    price: view.price,
    value: centsToUsd(microsToCents(view.notionalMicros)),
    entryPrice: view.entryPrice ?? (buy ? view.price : (view.entryNotionalMicros * 100) / view.units),
    fee: centsToUsd(microsToCents(view.feeMicros)),
    pnl,
    pnlRealised: view.realisedPnlMicros !== null,
    status: view.status,
    source: view.source,
    signal: view.source === MANUAL_SOURCE ? null : view.source,
    signalId: view.signalId,
    strategyId: view.strategyId ?? null,
    strategyType: view.strategyType ?? null,
    pairId: view.pairId ?? null,
    exchange: view.exchange ?? null,
    closeReason: view.closeReason,
    closedAt: view.closedAt,
    timestamp: view.placedAt,
    remainingQuantity: buy ? unitsToQuantity(heldUnits) : null,
    soldQuantity: buy ? unitsToQuantity(view.soldUnits ?? (view.closeReason === 'SELL' || view.closeReason === 'STOP_LOSS' || view.closeReason === 'TAKE_PROFIT' ? view.units : 0)) : null,
    lotRule: buy ? null : (view.lotRule ?? 'AVERAGE_COST'),
    lots: (view.lots ?? []).map((l) => ({ tradeId: l.tradeId, quantity: unitsToQuantity(l.units), entryPrice: l.entryPrice })),
    decision: view.decision ?? null,
    exits: buy && view.exits ? exitsView(view.exits) : null,
    execution: view.execution ? executionView(view.execution) : null,
  };
}

function executionView(e: NonNullable<TradeView['execution']>): NonNullable<Trade['execution']> {
  return { mid: e.mid, halfSpread: e.halfSpread, impact: e.impact, filledAt: e.filledAt, intendedAt: e.intendedAt ?? null, delayMs: e.delayMs ?? null, level: e.level ?? null };
}

function exitsView(plan: NonNullable<TradeView['exits']>): NonNullable<Trade['exits']> {
  if (plan.kind === 'MANUAL') return { kind: 'MANUAL', stopLoss: plan.stopLoss, takeProfit: plan.takeProfit, stopLossPercent: plan.stopLossPercent, takeProfitPercent: plan.takeProfitPercent };
  return { kind: plan.kind, stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null };
}

export function tradeSummary(counts: TradeSummaryCounts | undefined): TradeSummary {
  const c = counts ?? { trades: 0, buys: 0, sells: 0, closes: 0, wins: 0, realisedPnlMicros: 0, realisedPnlCents: 0, notionalMicros: 0 };
  return {
    totalTrades: c.trades,
    buys: c.buys,
    sells: c.sells,
    // No closing trade yet: no win rate at all (not 0 %, which would say every close lost).
    winRate: c.closes === 0 ? null : percentOf(c.wins, c.closes),
    totalPnl: centsToUsd(summaryRealisedCents(c)),
    avgTradeSize: c.trades === 0 ? 0 : centsToUsd(microsToCents(c.notionalMicros / c.trades)),
  };
}

// ---------------------------------------------------------------------------------------------
// risk

/** The user's one risk profile (the defaults until changed). */
export const profileOf = (risk: RiskView | null): RiskProfile => (risk ? riskProfileOf(risk) : { ...DEFAULT_RISK_PROFILE });

/** Cents a position would lose if sold at its stop (fee included) against its cost basis; at least 0. Without a stop, all of it. */
function riskCents(units: number, costBasisCents: number, stopPrice: number | null): number {
  // Stryker disable next-line ConditionalExpression: equivalent, a stop of null sells at 0 below (Math.max), which loses the same
  if (stopPrice === null) return Math.max(0, costBasisCents);
  const notional = notionalMicros(units, Math.max(stopPrice, 0));
  return Math.max(0, costBasisCents - microsToCents(notional - feeMicros(notional)));
}

const levelOrNull = (level: number) => (Number.isFinite(level) ? level : null);

/**
 * What the read side knows of a held coin's market: the figures now (an atr or volatility stop whose
 * entry recorded none), and the highest tick since the position's opening fill (a trailing stop: the
 * level the exit scan holds; NaN when unknown, and the entry stands in).
 */
export interface HeldCoinMarket extends CoinContext {
  highestSinceEntry: number;
}

export const emptyHeldCoinMarket = (): HeldCoinMarket => ({ ...emptyCoinContext(), highestSinceEntry: Number.NaN });

/**
 * Each open position with the exits it really has (stop-levels.ts, engine/exit-spec.ts): the bot's
 * follow the profile now (a trailing stop from the highest tick since the entry, as the risk monitor's
 * exit scan follows it), a manual one the levels its person set, or none. `positions` are the
 * portfolio's (for their plans); `coins` the market of the coins held (missing: no trailing high, no
 * figures of now).
 */
export function activeRiskTrades(
  valuation: PortfolioValuation,
  profile: RiskProfile,
  now: Date,
  positions: Partial<Record<CoinSymbol, Pick<Position, 'exits' | 'openedAt'>>> = {},
  coins: Partial<Record<CoinSymbol, HeldCoinMarket>> = {},
): ActiveRiskTrade[] {
  const totalCents = Math.round(valuation.totalValue * 100);
  return valuation.positions
    .map((p): ActiveRiskTrade => {
      const plan = exitsOf(positions[p.symbol] ?? {});
      const coin = coins[p.symbol] ?? emptyHeldCoinMarket();
      const trailing = plan.kind === 'PROFILE' && profile.stopLossType === 'trailing';
      // Stryker disable next-line EqualityOperator: equivalent, at equality both are the same
      const highest = trailing && coin.highestSinceEntry > p.avgEntryPrice ? coin.highestSinceEntry : p.avgEntryPrice;
      const levels = exitLevels(plan, profile, p.avgEntryPrice, highest, coin.atr, coin.sigma);
      const stopLoss = levelOrNull(levels.stopLoss);
      const risk = riskCents(quantityToUnits(p.quantity), Math.round(p.costBasis * 100), stopLoss);
      return {
        id: p.positionId,
        symbol: p.symbol,
        coinId: p.coinId,
        quantity: p.quantity,
        entryPrice: p.avgEntryPrice,
        currentPrice: p.currentPrice,
        stopLoss,
        takeProfit: levelOrNull(levels.takeProfit),
        exitPlan: plan.kind,
        stopLossType: plan.kind === 'PROFILE' ? profile.stopLossType : null,
        highestSinceEntry: trailing ? highest : null,
        stopRule: stopRuleText(plan, profile, p.avgEntryPrice, highest, coin.atr, coin.sigma),
        riskAmount: centsToUsd(risk),
        riskPercentage: percentOf(risk, totalCents),
        unrealizedPnL: p.unrealisedPnl,
        timeInTrade: Math.max(0, Math.floor((now.getTime() - Date.parse(p.openedAt)) / 1000)),
      };
    })
    .sort((a, b) => a.timeInTrade - b.timeInTrade || a.symbol.localeCompare(b.symbol));
}

/**
 * maxDrawdown as GET /api/risk reports it: the value now against the recorded peak (the same rule the
 * bot refuses entries by, entry-rules.ts), and the reason new entries are paused, if they are.
 */
export function drawdownState(view: PortfolioView | null, valuation: PortfolioValuation, profile: RiskProfile): RiskResponse['drawdown'] {
  const peak = view ? peakOf(view) / MICROS_PER_USD : valuation.startingCash;
  const top = Math.max(peak, valuation.totalValue);
  const percent = drawdownPercent(peak, valuation.totalValue);
  const paused = drawdownStopsEntries(percent, profile.maxDrawdown);
  return {
    peak: centsToUsd(Math.round(top * 100)),
    value: valuation.totalValue,
    percent: Math.round(percent * 100) / 100,
    maxDrawdown: profile.maxDrawdown,
    entriesPaused: paused,
    reason: paused ? `New entries paused: drawdown ${percent.toFixed(2)}% from the peak ${usdText(top)} is above the maximum ${profile.maxDrawdown}%` : null,
  };
}

export interface RiskReadInput {
  profile: RiskProfile;
  view: PortfolioView | null;
  valuation: PortfolioValuation;
  daily: DailyPnl;
  now: Date;
  coins?: Partial<Record<CoinSymbol, HeldCoinMarket>>;
}

export function riskResponse({ profile, view, valuation, daily, now, coins }: RiskReadInput): RiskResponse {
  const settings = botSettingsOf(profile);
  const active = activeRiskTrades(valuation, profile, now, view?.positions ?? {}, coins);
  const riskTotalCents = active.reduce((sum, t) => sum + Math.round(t.riskAmount * 100), 0);
  const dailyLimitCents = Math.round(settings.dailyLossLimit * 100);
  return {
    settings: botSettingsView(settings, profile.stopLossType),
    maxPositionSize: settings.maxPositionSize,
    stopLossPercent: settings.stopLossPercent,
    takeProfitPercent: settings.takeProfitPercent,
    dailyLossLimit: settings.dailyLossLimit,
    stopLossType: profile.stopLossType,
    stopLossUnit: stopLossUnits[profile.stopLossType],
    dailyPnL: centsToUsd(daily.dailyPnlCents),
    dailyLossUsed: centsToUsd(Math.max(0, -daily.dailyPnlCents)),
    // The spec writes the bar as |dailyPnL| / limit, which on a winning day fills the "Daily Loss
    // Used" bar (60%, amber, beside "$0.00 / $500.00") with a gain. A gain uses none of the daily loss
    // limit, as the risk monitor's daily-loss alerts and the bot's refusal count it: the loss alone.
    dailyLossUsedPercent: percentOf(Math.max(0, -daily.dailyPnlCents), dailyLimitCents),
    portfolioRiskAmount: centsToUsd(riskTotalCents),
    portfolioRiskPercent: percentOf(riskTotalCents, Math.round(valuation.totalValue * 100)),
    openPositions: valuation.positions.length,
    drawdown: drawdownState(view, valuation, profile),
  };
}

export function riskParametersResponse(risk: RiskView | null): RiskParametersResponse {
  return { ...parametersOf(profileOf(risk)), customised: risk?.parametersCustomised ?? false };
}

export function riskAlertsResponse(risk: RiskView | null): RiskAlertsResponse {
  // Stored oldest raised first: reversed, then a stable sort on the time, so alerts raised at the same
  // moment stay newest (last raised) first.
  const alerts = [...(risk?.alerts ?? [])].reverse().sort((a, b) => Date.parse(b.raisedAt) - Date.parse(a.raisedAt));
  return {
    alerts: alerts.map((a) => ({
      id: a.alertId,
      kind: a.kind,
      severity: a.severity,
      symbol: a.symbol,
      message: a.message,
      value: a.value,
      threshold: a.threshold,
      acknowledged: a.acknowledged,
      acknowledgedAt: a.acknowledgedAt,
      timestamp: a.raisedAt,
      // Documents projected before alerts could be resolved have no such fields: standing.
      resolved: !isStanding(a),
      resolvedAt: a.resolvedAt ?? null,
      resolution: a.resolution ?? null,
    })),
    unacknowledged: alerts.filter((a) => !a.acknowledged && isStanding(a)).length,
  };
}
