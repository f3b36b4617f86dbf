/**
 * The terms the assistant explains, each as this product computes it (issue 20). Every figure a
 * definition states is one of the product's own constants, imported from where the rule lives and
 * passed as a fact, so an explanation cannot drift from the code and the grounding check holds for
 * it like for any answer: the texts below hold no digit of their own.
 *
 * Sources: indicators (market/indicators, signals/signal-rules.ts), stops and targets
 * (trading/stop-levels.ts, market-figures.ts), the entry rules (trading/entry-rules.ts,
 * bot-trade-decision.ts), the drawdown peak (portfolio.decider.ts), the model's measurement (ml/).
 * Sharpe, profit factor and walk-forward are the backtester's figures (issue 18, not built yet): their
 * definitions say how it will state them, as the design fixes them (Sharpe annualised with 365 days).
 */
import { MACD_PERIODS } from '../market/indicators/macd';
import { RSI_PERIOD } from '../market/indicators/rsi';
import { HIGH_VOLUME_RATIO, LOW_VOLUME_RATIO } from '../market/indicators/volume-level';
import { GAP_ROWS, TRAIN_SHARE } from '../ml/dataset';
import { SIGNAL_CANDLE_MINUTES } from '../signals/contracts';
import { RSI_OVERBOUGHT, RSI_OVERSOLD, SIGNAL_SCORE_THRESHOLD, SIGNAL_WEIGHTS } from '../signals/signal-rules';
import { DYNAMIC_SCALE_MAX, DYNAMIC_SCALE_MIN, KELLY_MIN_CLOSES } from '../trading/entry-rules';
import { ATR_PERIOD, SIGMA_RETURNS } from '../trading/market-figures';
import { STARTING_CASH_USD, TRADE_FEE_RATE } from '../trading/money';
import { PEAK_STEP } from '../trading/portfolio.decider';
import type { Fact } from './contracts';
import { facts, screens, type Where } from './facts';

export const glossaryTerms = [
  'rsi',
  'macd',
  'moving_average',
  'sma',
  'ema',
  'volume',
  'stop_loss',
  'fixed_stop',
  'trailing_stop',
  'atr_stop',
  'volatility_stop',
  'take_profit',
  'reward_risk',
  'position_sizing',
  'kelly',
  'dynamic_sizing',
  'drawdown',
  'daily_loss_limit',
  'correlation_limit',
  'volatility_threshold',
  'sharpe',
  'profit_factor',
  'walk_forward',
  'win_rate',
  'signal_confidence',
  'model_verdict',
  'fifo',
  'paper_trading',
  'backtest',
] as const;
export type GlossaryTerm = (typeof glossaryTerms)[number];

type ConstantUnit = 'count' | 'number' | 'plainPercent' | 'usd';
interface TermDefinition {
  title: string;
  /** Words and phrases that name the term in a question (lower case; matched on word boundaries). */
  names: readonly string[];
  where: Where;
  constants: Readonly<Record<string, { label: string; value: number; unit: ConstantUnit }>>;
  /** The explanation: literal text without digits, the constants' texts interpolated. */
  text: (c: Record<string, string>) => string;
}

const indicatorsScreen: Where = { source: screens.dashboard, api: 'GET /api/indicators' };
const riskScreen: Where = { source: screens.riskParameters, api: 'GET /api/risk/parameters' };
const backtestScreen: Where = { source: screens.backtesting, api: 'none (the backtester comes next)' };
const c = (label: string, value: number, unit: ConstantUnit = 'count') => ({ label, value, unit });

const definitions: Readonly<Record<GlossaryTerm, TermDefinition>> = {
  rsi: {
    title: 'RSI (Relative Strength Index)',
    names: ['rsi', 'relative strength index', 'relative strength'],
    where: indicatorsScreen,
    constants: { period: c('RSI period (candles)', RSI_PERIOD), oversold: c('RSI oversold below', RSI_OVERSOLD), overbought: c('RSI overbought above', RSI_OVERBOUGHT), weight: c('RSI weight in a signal', SIGNAL_WEIGHTS.RSI), minutes: c('Signal candle (minutes)', SIGNAL_CANDLE_MINUTES) },
    text: (k) =>
      `RSI (Relative Strength Index) measures momentum: it compares the average gain with the average loss of the last ${k.period} candle closes, smoothed the way Wilder defined it (each new average keeps most of the previous one and adds a ${k.period}th of the newest change), and maps their ratio onto a scale from zero to a hundred. Here it is read on the ${k.minutes}-minute candles the signals use: below ${k.oversold} is oversold (a BUY reason in a signal, weight ${k.weight}), above ${k.overbought} overbought (a SELL reason), in between neutral.`,
  },
  macd: {
    title: 'MACD (Moving Average Convergence Divergence)',
    names: ['macd', 'moving average convergence divergence', 'signal line', 'histogram'],
    where: indicatorsScreen,
    constants: { fast: c('MACD fast EMA (candles)', MACD_PERIODS.fast), slow: c('MACD slow EMA (candles)', MACD_PERIODS.slow), signal: c('MACD signal line EMA (candles)', MACD_PERIODS.signal), weight: c('MACD weight in a signal', SIGNAL_WEIGHTS.MACD) },
    text: (k) =>
      `MACD is the ${k.fast}-candle exponential moving average of the closes minus the ${k.slow}-candle one; its signal line is the ${k.signal}-candle EMA of MACD itself, and the histogram is MACD minus the signal line (each EMA here starts from the simple mean of its first inputs). MACD above its signal line reads bullish (a BUY reason, weight ${k.weight}), below it bearish (a SELL reason).`,
  },
  moving_average: {
    title: 'Moving averages',
    names: ['moving average', 'moving averages', 'ma20', 'ma 20'],
    where: indicatorsScreen,
    constants: { short: c('Short average (candles)', 20), long: c('Long average (candles)', 50), weight: c('Average weight in a signal', SIGNAL_WEIGHTS.SMA20) },
    text: (k) =>
      `A moving average smooths the closes over a window that moves with each candle. A simple one (SMA) is the plain mean of the last N closes; an exponential one (EMA) weighs recent closes more. The chart draws SMA${k.short}, SMA${k.long} and EMA${k.short}; a signal counts the price above SMA${k.short} or SMA${k.long} as a BUY reason and below as a SELL reason, and EMA${k.short} rising since the previous candle as BUY, falling as SELL (weight ${k.weight} each).`,
  },
  sma: {
    title: 'SMA (simple moving average)',
    names: ['sma', 'simple moving average', 'sma20', 'sma50', 'sma 20', 'sma 50'],
    where: indicatorsScreen,
    constants: { short: c('Short average (candles)', 20), long: c('Long average (candles)', 50), weight: c('SMA weight in a signal', SIGNAL_WEIGHTS.SMA20) },
    text: (k) =>
      `A simple moving average is the plain mean of the last N closes, each weighing the same. SMA${k.short} exists from the ${k.short}th candle and SMA${k.long} from the ${k.long}th. A price above the average is a BUY reason in a signal and below it a SELL reason (weight ${k.weight} each).`,
  },
  ema: {
    title: 'EMA (exponential moving average)',
    names: ['ema', 'exponential moving average', 'ema20', 'ema 20'],
    where: indicatorsScreen,
    constants: { period: c('EMA period (candles)', 20), numerator: c('EMA smoothing numerator', 2), denominator: c('EMA smoothing denominator', 21), weight: c('EMA weight in a signal', SIGNAL_WEIGHTS.EMA20) },
    text: (k) =>
      `An exponential moving average moves a fixed share of the way from its last value to each new close, so recent closes weigh more than old ones: for EMA${k.period} that share is ${k.numerator}/${k.denominator}, and the chart's EMA starts from the first close. A signal reads EMA${k.period} rising since the previous candle as a BUY reason and falling as a SELL reason (weight ${k.weight}).`,
  },
  volume: {
    title: 'Volume level',
    names: ['volume level', 'volume', 'high volume', 'low volume'],
    where: indicatorsScreen,
    constants: { high: c('High volume above (times the average)', HIGH_VOLUME_RATIO, 'number'), low: c('Low volume below (times the average)', LOW_VOLUME_RATIO, 'number'), window: c('Volume average (candles)', 20) },
    text: (k) =>
      `The volume level compares the last candle's traded volume with its ${k.window}-candle average: HIGH above ${k.high} times the average ('Above average'), LOW below ${k.low} times ('Below average'), NORMAL in between. In a signal, HIGH volume confirms the direction the other indicators lean to; NORMAL or LOW volume says HOLD.`,
  },
  stop_loss: {
    title: 'Stop loss (the four types)',
    names: ['stop loss', 'stop-loss', 'stoploss', 'stop losses', 'stop types', 'stop loss types', 'stop'],
    where: riskScreen,
    constants: { atr: c('ATR period (candles)', ATR_PERIOD), sigma: c('Volatility returns (candles)', SIGMA_RETURNS), minutes: c('Candle (minutes)', SIGNAL_CANDLE_MINUTES) },
    text: (k) =>
      `A stop loss sells a position when the price falls to a level, to cap the loss. The bot's positions follow your risk profile's stop-loss type and value v: fixed sits v percent below the entry price; trailing sits v percent below the highest price since the entry, so it rises with the price and never falls; atr sits v times the coin's ATR${k.atr} (average true range of ${k.minutes}-minute candles, taken when the bot entered) below the entry; volatility sits v times sigma (the standard deviation of the last ${k.sigma} ${k.minutes}-minute log returns) times the entry price below it. A manual position has only the stop you set on the trade form, or none. When a candle reaches both the stop and the target, the stop is taken as hit first.`,
  },
  fixed_stop: {
    title: 'Fixed stop',
    names: ['fixed stop', 'fixed stop loss', 'fixed'],
    where: riskScreen,
    constants: {},
    text: () => `A fixed stop sits your stop-loss value, in percent, below the position's average entry price, and stays there: the position is sold when a price at or below it comes. Its take profit sits the take-profit ratio times the stop's distance above the entry.`,
  },
  trailing_stop: {
    title: 'Trailing stop',
    names: ['trailing stop', 'trailing stop loss', 'trailing'],
    where: riskScreen,
    constants: {},
    text: () =>
      `A trailing stop sits your stop-loss value, in percent, below the highest price the coin reached since the entry (complete candles), so it moves up as the price rises and never down; it is never below where a fixed stop would be. Its take profit uses the fixed stop's distance from the entry times the take-profit ratio.`,
  },
  atr_stop: {
    title: 'ATR stop',
    names: ['atr stop', 'atr', 'average true range'],
    where: riskScreen,
    constants: { atr: c('ATR period (candles)', ATR_PERIOD), minutes: c('Candle (minutes)', SIGNAL_CANDLE_MINUTES) },
    text: (k) =>
      `An ATR stop sits k times the coin's average true range below the entry, k being your stop-loss value. The true range of a candle is the largest of its high minus low and its distance from the previous close; ATR${k.atr} is their Wilder average over ${k.atr} ${k.minutes}-minute candles, in dollars, taken when the bot entered, so a calm market after the entry does not move the stop.`,
  },
  volatility_stop: {
    title: 'Volatility stop',
    names: ['volatility stop', 'sigma stop'],
    where: riskScreen,
    constants: { sigma: c('Volatility returns (candles)', SIGMA_RETURNS), minutes: c('Candle (minutes)', SIGNAL_CANDLE_MINUTES) },
    text: (k) =>
      `A volatility stop sits k times sigma times the entry price below the entry, k being your stop-loss value and sigma the standard deviation of the coin's last ${k.sigma} ${k.minutes}-minute log returns, taken when the bot entered.`,
  },
  take_profit: {
    title: 'Take profit',
    names: ['take profit', 'take-profit', 'takeprofit', 'target', 'take profit ratio'],
    where: riskScreen,
    constants: {},
    text: () =>
      `The take profit sells a position when the price rises to its target: the entry price plus the take-profit ratio times the initial stop's distance from the entry (a ratio of two and a half puts the target two and a half times as far above the entry as the stop is below it). Bot Settings show it as the stop value times the ratio.`,
  },
  reward_risk: {
    title: 'Reward/risk',
    names: ['reward risk', 'reward/risk', 'risk reward', 'risk/reward', 'reward to risk', 'risk reward ratio', 'reward-risk'],
    where: riskScreen,
    constants: { fee: c('Fee per fill', TRADE_FEE_RATE * 100, 'plainPercent') },
    text: (k) =>
      `Reward/risk is what a trade stands to win against what it stands to lose, net of the ${k.fee} fee on each fill: the target's sale after its fee minus the entry's cost with its fee, over the entry's cost minus the stop's sale after its fee. The bot refuses a BUY whose reward/risk is below your minimum reward/risk ratio.`,
  },
  position_sizing: {
    title: 'Position sizing',
    names: ['position sizing', 'position size', 'sizing', 'how much to buy', 'how much the bot buys', 'trade size', 'size of a trade'],
    where: riskScreen,
    constants: { fee: c('Fee per fill', TRADE_FEE_RATE * 100, 'plainPercent') },
    text: (k) =>
      `The bot sizes each BUY by your risk profile: by default your maximum position size, as a percent of the portfolio's value; with Kelly sizing on, half the Kelly fraction from your own closed trades, capped at that maximum; with dynamic sizing on, that size scaled by the coin's calm or turbulence, again capped at the maximum. It never spends more than the cash left after the ${k.fee} fee, and refuses a size below the smallest trade.`,
  },
  kelly: {
    title: 'Kelly sizing (half Kelly)',
    names: ['kelly', 'kelly criterion', 'half kelly', 'kelly sizing'],
    where: riskScreen,
    constants: { closes: c('Closed trades Kelly needs', KELLY_MIN_CLOSES), half: c('Share of the Kelly fraction staked', 0.5, 'number') },
    text: (k) =>
      `The Kelly fraction is the share of capital that maximises long-run growth for a bet with win rate W and payoff R (average win over average loss): W minus the share of closes that did not win divided by R. With Kelly sizing on, the bot stakes ${k.half} times that fraction of the portfolio (half Kelly, to soften the damage of estimating W and R from few trades), capped at your maximum position size, from your own closed trades once there are at least ${k.closes} of them (before that it uses the fixed size). A fraction at or below zero means no measured edge, and the bot refuses the entry.`,
  },
  dynamic_sizing: {
    title: 'Dynamic position sizing',
    names: ['dynamic sizing', 'dynamic position sizing', 'dynamic size'],
    where: riskScreen,
    constants: { min: c('Smallest scale', DYNAMIC_SCALE_MIN, 'number'), max: c('Largest scale', DYNAMIC_SCALE_MAX, 'number') },
    text: (k) =>
      `Dynamic sizing scales a BUY's size by the coin's average volatility over its recent volatility, kept between ${k.min} and ${k.max}: a coin calmer than usual gets a larger position, a turbulent one a smaller one, and the size never goes above your maximum position size.`,
  },
  drawdown: {
    title: 'Drawdown',
    names: ['drawdown', 'draw down', 'max drawdown', 'maximum drawdown', 'drawdowns'],
    where: { source: screens.dashboard, api: 'GET /api/risk' },
    constants: { step: c('Peak recorded in steps of at least', PEAK_STEP * 100, 'plainPercent') },
    text: (k) =>
      `Drawdown is how far the portfolio's value is below its peak, as a percent of the peak (zero at or above it). The peak starts at the starting cash and the risk monitor raises it as the value climbs (in steps of at least ${k.step}); a portfolio reset starts it over. While the drawdown is above your maximum drawdown, the bot opens no new position.`,
  },
  daily_loss_limit: {
    title: 'Daily loss limit',
    names: ['daily loss limit', 'daily loss', 'max daily loss', 'maximum daily loss'],
    where: riskScreen,
    constants: { first: c('First alert at (of the limit)', 50, 'plainPercent'), second: c('Second alert at (of the limit)', 80, 'plainPercent') },
    text: (k) =>
      `The daily loss limit caps what the bot may lose in one UTC day: once today's realised losses reach it, the bot opens no new position until the day ends. The risk monitor raises an alert at ${k.first} and at ${k.second} of the limit.`,
  },
  correlation_limit: {
    title: 'Correlation limit',
    names: ['correlation limit', 'correlation'],
    where: riskScreen,
    constants: { days: c('Correlation window (days)', 30) },
    text: (k) =>
      `The correlation limit keeps the bot from stacking bets that move together: it refuses a BUY when the coin's returns over the last ${k.days} days correlate with those of a coin it already holds above the limit.`,
  },
  volatility_threshold: {
    title: 'Volatility threshold',
    names: ['volatility threshold', 'volatility limit'],
    where: riskScreen,
    constants: { hours: c('Range window (hours)', 24) },
    text: (k) =>
      `The volatility threshold pauses new BUYs of a coin while its ${k.hours}-hour range (the highest high minus the lowest low, as a percent of the low) is above it, and the risk monitor raises an alert when a coin you hold crosses it.`,
  },
  sharpe: {
    title: 'Sharpe ratio',
    names: ['sharpe', 'sharpe ratio'],
    where: backtestScreen,
    constants: { days: c('Days in a year (crypto trades every day)', 365) },
    text: (k) =>
      `The Sharpe ratio is the average return of a strategy per period over the standard deviation of those returns: return per unit of risk. Annualised, it is multiplied by the square root of the periods in a year; this product counts ${k.days} days in a year, since crypto markets trade every day. Higher is better; it says nothing about returns that are rare but large.`,
  },
  profit_factor: {
    title: 'Profit factor',
    names: ['profit factor'],
    where: backtestScreen,
    constants: {},
    text: () =>
      `Profit factor is the gross profit over the gross loss: the sum of the winning trades' profits divided by the sum of the losing trades' losses. Above one the winners made more than the losers lost; below one the strategy lost money overall.`,
  },
  walk_forward: {
    title: 'Walk-forward analysis',
    names: ['walk forward', 'walk-forward', 'walkforward', 'walk forward analysis', 'out of sample', 'out-of-sample'],
    where: backtestScreen,
    constants: {},
    text: () =>
      `Walk-forward analysis tests a strategy the way it would have been used: choose its parameters on one window of history, test them on the next window that the choice never saw, then move both windows forward and repeat. Only the test windows count, joined end to end, so a parameter set that merely fits the past shows up as a poor result instead of a good one.`,
  },
  win_rate: {
    title: 'Win rate',
    names: ['win rate', 'winrate', 'hit rate'],
    where: { source: screens.tradeHistory, api: 'GET /api/trades' },
    constants: {},
    text: () => `The win rate is the percent of your closing trades (SELLs, stop losses and take profits) with a realised profit above zero. Trade History shows a dash until a trade has closed.`,
  },
  signal_confidence: {
    title: 'Signal confidence',
    names: ['confidence', 'signal confidence', 'mixed evidence', 'mixed', 'how are signals', 'how signals', 'weighted vote', 'signal score'],
    where: { source: screens.dashboard, api: 'GET /api/signals' },
    constants: { rsi: c('RSI weight', SIGNAL_WEIGHTS.RSI), macd: c('MACD weight', SIGNAL_WEIGHTS.MACD), others: c('Other indicators\u2019 weight', SIGNAL_WEIGHTS.SMA20), threshold: c('Score threshold for BUY or SELL', SIGNAL_SCORE_THRESHOLD, 'number') },
    text: (k) =>
      `A signal is a weighted vote of the indicators on the last closed candle: RSI and MACD weigh ${k.rsi}, SMA20, SMA50, EMA20 and volume ${k.others} each, and each says BUY, SELL or HOLD. The score is the BUY weight minus the SELL weight over all the weight; at ${k.threshold} or more the signal is BUY, at minus ${k.threshold} or less SELL, else HOLD. Its confidence is the weight backing the verdict net of the weight against it, as a percent of all the weight; 'mixed evidence' means more weight cancels out than backs it. It is a rule, not advice.`,
  },
  model_verdict: {
    title: "The model's accuracy, baseline and verdict",
    names: ['baseline', 'majority baseline', 'verdict', 'no edge', 'wilson interval', 'wilson', 'confidence interval', 'held-out accuracy', 'out of sample accuracy'],
    where: { source: screens.dashboard, api: 'GET /api/ml-status' },
    constants: { train: c('Share of rows trained on', TRAIN_SHARE * 100, 'plainPercent'), gap: c('Rows left out between training and test', GAP_ROWS), interval: c('Interval confidence', 95, 'plainPercent') },
    text: (k) =>
      `The model predicts whether the next candle closes up or down. Its accuracy is measured out of sample: the first ${k.train} of the candles train it, ${k.gap} candles after them are left out so no feature window overlaps, and the rest test it. The baseline is what always guessing the more common direction of those test candles would score; the ${k.interval} interval is Wilson's for the accuracy. The verdict is 'edge' only when the interval's lower end is above the baseline, otherwise 'no edge': the accuracy could be luck.`,
  },
  fifo: {
    title: 'FIFO lots',
    names: ['fifo', 'lots', 'lot', 'first in first out'],
    where: { source: screens.tradeHistory, api: 'GET /api/trades' },
    constants: {},
    text: () =>
      `Each BUY is a lot. A SELL, and a stop loss or take profit, takes coins from your open lots oldest first (first in, first out); its realised P&L is what it brought in after its fee minus what the coins it took cost, fees included. A BUY whose lot is emptied is closed; one partly sold stays open with what remains.`,
  },
  paper_trading: {
    title: 'Paper trading',
    names: ['paper trading', 'paper trade', 'simulation', 'simulated', 'paper'],
    where: { source: screens.dashboard, api: 'GET /api/portfolio' },
    constants: { cash: c('Starting cash', STARTING_CASH_USD, 'usd'), fee: c('Fee per fill', TRADE_FEE_RATE * 100, 'plainPercent') },
    text: (k) =>
      `Paper trading is trading with simulated money: your portfolio starts with ${k.cash} of paper cash, trades fill at the live price with a ${k.fee} fee, and nothing real is bought or sold. Every trade is labelled SIMULATION.`,
  },
  backtest: {
    title: 'Backtest',
    names: ['backtest', 'backtesting', 'backtests'],
    where: backtestScreen,
    constants: {},
    text: () =>
      `A backtest replays a strategy over past candles with the same fills, stops and risk rules as paper trading, and reports its return, drawdown, win rate, Sharpe ratio and profit factor. The backtester is being built next; until it is, I cannot run one.`,
  },
};

export interface TermFacts {
  term: GlossaryTerm;
  title: string;
  /** The explanation, with the constants' texts in it. */
  text: string;
  constants: Fact[];
}

/** A term's explanation and the constants it states, as facts (`term.<term>.<name>`). */
export function explainTerm(term: GlossaryTerm): TermFacts {
  const def = definitions[term];
  const constants: Fact[] = [];
  const texts: Record<string, string> = {};
  for (const [name, k] of Object.entries(def.constants)) {
    const id = `term.${term}.${name}`;
    const fact =
      k.unit === 'usd' ? facts.usd(id, k.label, k.value, def.where) : k.unit === 'plainPercent' ? facts.plainPercent(id, k.label, k.value, def.where) : k.unit === 'number' ? facts.number(id, k.label, k.value, def.where) : facts.count(id, k.label, k.value, def.where);
    constants.push(fact);
    texts[name] = fact.text;
  }
  return { term, title: def.title, text: def.text(texts), constants };
}

export const termTitle = (term: GlossaryTerm) => definitions[term].title;

/** Every name of every term, longest first (so 'trailing stop' is found before 'stop'). */
export const termNames: ReadonlyArray<{ name: string; term: GlossaryTerm }> = glossaryTerms
  .flatMap((term) => definitions[term].names.map((name) => ({ name, term })))
  .sort((a, b) => b.name.length - a.name.length);
