/**
 * The grounded assistant's answers (issue 20): for each intent, the tool calls that fetch its facts
 * (`planFor`) and a template that writes the answer from them (`render`). Templates interpolate
 * `fact.text` only: their literal text holds no digit, so every number in an answer is one of the
 * facts it returns (answers.unit.spec.ts and the 200-answer grounding spec check it), and a text a
 * user controls (a name) is quoted as data, never read as an instruction.
 *
 * The user's backtests come from `my_backtests` (their backtest history). A what-if ("what if my stop
 * loss were 3% over the last 30 days?", what-if.ts) is two backtester runs over the same days, the
 * profile as it is and changed (`what_if_backtest`); where the deployment has no runner (a market other
 * than the simulated one) the answer says so, with no figure.
 */
import type { CoinSymbol } from '../market/coins';
import type { Fact } from './contracts';
import { collectFacts } from './facts';
import type { Recognised } from './intents';
import { WHAT_IF_DEFAULT_DAYS, whatIfProblem, type WhatIfSetting } from './what-if';
import type {
  AlertResult,
  BacktestItemResult,
  PositionResult,
  RiskProfileResult,
  ToolInput,
  ToolName,
  ToolResults,
  TradeResult,
} from './tools';

/** One look-up to make: a tool and its input. */
export type ToolCall = { [N in ToolName]: { name: N; input: ToolInput<N> } }[ToolName];


const call = <N extends ToolName>(name: N, input: ToolInput<N>) => ({ name, input }) as ToolCall;
const withSymbol = (symbol: CoinSymbol | null) => (symbol ? { symbol } : {});

/** The look-ups an intent's answer needs. */
export function planFor(r: Recognised): ToolCall[] {
  switch (r.intent) {
    case 'greeting':
      return [call('get_profile', {})];
    case 'who_am_i':
      return [call('get_profile', {}), call('get_subscription', {})];
    case 'portfolio':
    case 'pnl_today':
      return [call('get_portfolio', {})];
    case 'pnl_total':
      return [call('get_portfolio', {}), call('get_trade_summary', {})];
    case 'positions':
      return [call('get_positions', withSymbol(r.symbol))];
    case 'recent_trades':
      return [call('get_trades', { limit: 5, ...withSymbol(r.symbol), ...(r.side ? { type: r.side } : {}) })];
    case 'trade_reason':
      return [call('get_trades', { limit: 1, ...withSymbol(r.symbol), ...(r.side ? { type: r.side } : {}) })];
    case 'bot_refusals':
      return [call('get_bot_refusals', { limit: 3, ...withSymbol(r.symbol) })];
    case 'trade_stats':
      return [call('get_trade_summary', {})];
    case 'bot_status':
      return [call('get_bot_status', {})];
    case 'signal':
      return [call('get_signal', { symbol: r.symbol ?? 'ETH' })];
    case 'indicators':
      return [call('get_indicators', { symbol: r.symbol ?? 'ETH' })];
    case 'price':
      return [call('get_price', { symbol: r.symbol ?? 'ETH' })];
    case 'risk_profile':
      return [call('get_risk_profile', {})];
    case 'risk_status':
      return [call('get_risk_status', {})];
    case 'alerts':
      return [call('get_alerts', {})];
    case 'subscription':
      return [call('get_subscription', {})];
    case 'model':
    case 'prediction':
      return [call('get_model_status', {})];
    case 'explain':
      return r.term ? [call('explain_term', { term: r.term })] : [];
    case 'my_backtests':
      return [call('my_backtests', {})];
    case 'what_if': {
      const w = r.whatIf;
      if (!w || whatIfProblem(w) !== null) return [];
      return [call('what_if_backtest', { setting: w.setting!, value: w.value!, symbol: r.symbol ?? 'ETH', days: w.days ?? WHAT_IF_DEFAULT_DAYS })];
    }
    case 'help':
    case 'action':
    case 'unknown':
      return [];
  }
}

/** What render needs: the results of the plan's calls, by tool name. */
export type PlanResults = Partial<{ [N in ToolName]: ToolResults[N] }>;

export interface RenderedAnswer {
  text: string;
  /** The facts of the results the text was written from. */
  facts: Fact[];
}

const CAPABILITIES =
  'your portfolio and your P&L today or overall; your open positions with their stops and targets; your recent trades and why each happened; the BUY signals the bot refused; your win rate; whether your bot is running; the latest signal or indicators of any coin and its price; your risk profile, your risk today and your alerts; your subscription; the AI model\u2019s measured accuracy; your latest backtests; and what a term means (RSI, MACD, moving averages, each stop-loss type, Kelly sizing, drawdown, Sharpe, profit factor, walk-forward and more)';

const plural = (count: Fact, one: string, many: string) => (count.value === 1 ? one : many);
const list = (lines: string[]) => lines.map((l) => `\u2022 ${l}`).join('\n');

/** The answer to `r` from `results`. */
export function render(r: Recognised, results: PlanResults): RenderedAnswer {
  const text = write(r, results);
  return { text, facts: collectFacts(Object.values(results)) };
}

function write(r: Recognised, x: PlanResults): string {
  switch (r.intent) {
    case 'help':
      return `I answer from your own paper-trading data and this product's engines, and I say so when something is outside what I know. Ask me about ${CAPABILITIES}. I don't give financial advice or predict prices.`;
    case 'greeting': {
      const p = x.get_profile!;
      return `Hello, ${p.name.text}! I'm your paper-trading assistant. Ask me about your portfolio, positions, trades and why they happened, signals and indicators, your risk settings and alerts, the AI model's accuracy, or what a trading term means.`;
    }
    case 'who_am_i': {
      const p = x.get_profile!;
      const s = x.get_subscription!;
      return `You are signed in as ${p.username.text} (first name: ${p.name.text}), on the ${s.plan.text} plan (${s.tier.text}, ${s.status.text}).`;
    }
    case 'portfolio': {
      const p = x.get_portfolio!;
      return (
        `Your paper portfolio is worth ${p.totalValue.text}: ${p.cash.text} in cash and ${p.positionsValue.text} in ${p.openPositions.text} open ${plural(p.openPositions, 'position', 'positions')}. ` +
        `Today (since the UTC day began) it is ${p.dailyPnl.text} (${p.dailyPnlPercent.text}); since you started, or since your last reset, ${p.totalPnl.text} (${p.totalPnlPercent.text} of the ${p.startingCash.text} starting cash).`
      );
    }
    case 'pnl_today': {
      const p = x.get_portfolio!;
      const direction = p.dailyPnlValue > 0 ? 'up' : p.dailyPnlValue < 0 ? 'down' : 'flat';
      return `Today your portfolio is ${direction}: its P&L since the UTC day began is ${p.dailyPnl.text} (${p.dailyPnlPercent.text} of its value then), of which ${p.realisedToday.text} is realised by trades closed today; the rest is the change in value of what you hold. It is worth ${p.totalValue.text} now.`;
    }
    case 'pnl_total': {
      const p = x.get_portfolio!;
      const s = x.get_trade_summary!;
      const win = s.winRate ? `a win rate of ${s.winRate.text}` : 'no win rate yet, since no trade has closed';
      return (
        `Since you started, or since your last reset, your total P&L is ${p.totalPnl.text} (${p.totalPnlPercent.text} of the ${p.startingCash.text} starting cash): ${p.realisedPnl.text} realised and ${p.unrealisedPnl.text} unrealised on open positions. ` +
        `Over all your closing trades ever, the realised P&L is ${s.realisedPnl.text}, with ${win}.`
      );
    }
    case 'positions': {
      const result = x.get_positions!;
      const shown = r.symbol ? result.positions.filter((p) => p.symbol === r.symbol) : result.positions;
      if (shown.length === 0) return r.symbol ? `You hold no ${r.symbol} now.` : 'You have no open positions.';
      const head = r.symbol ? `Your ${r.symbol} position:` : `You have ${result.count.text} open ${plural(result.count, 'position', 'positions')}:`;
      return `${head}\n${list(shown.map(positionLine))}`;
    }
    case 'recent_trades': {
      const t = x.get_trades!;
      const what = `${r.side ? `${r.side.toLowerCase()} ` : ''}trade`;
      const coin = r.symbol ? ` in ${r.symbol}` : '';
      if (t.trades.length === 0) return `You have no ${what}s${coin} yet.`;
      const head = t.trades.length === 1 ? `Your last ${what}${coin}:` : `Your last ${t.shown.text} ${what}s${coin}, newest first (${t.total.text} in all):`;
      return `${head}\n${list(t.trades.map(tradeLine))}`;
    }
    case 'trade_reason': {
      const t = x.get_trades!.trades[0];
      const what = `${r.side ? `${r.side.toLowerCase()} ` : ''}trade${r.symbol ? ` in ${r.symbol}` : ''}`;
      if (!t) return `You have no ${what} yet, so there is nothing to explain.`;
      return `Your last ${what} was a ${t.type} of ${t.amount.text} at ${t.price.text} on ${t.time.text}. ${whyTrade(t)}`;
    }
    case 'bot_refusals': {
      const result = x.get_bot_refusals!;
      const shown = r.symbol ? result.refusals.filter((f) => f.symbol === r.symbol) : result.refusals;
      if (shown.length === 0) return `The bot has not refused any BUY signal${r.symbol ? ` in ${r.symbol}` : ''} for you recently.`;
      const head = shown.length === 1 ? 'The bot refused this BUY signal recently:' : `The bot refused these BUY signals recently, newest first:`;
      return `${head}\n${list(shown.map((f) => `${f.time.text}, ${f.symbol}: ${f.text.text} (rule ${f.rule.text})`))}`;
    }
    case 'trade_stats': {
      const s = x.get_trade_summary!;
      const win = s.winRate ? `your win rate is ${s.winRate.text} of the closing trades` : 'no trade has closed yet, so there is no win rate';
      return `All time you have made ${s.totalTrades.text} ${plural(s.totalTrades, 'trade', 'trades')}: ${s.buys.text} ${plural(s.buys, 'buy', 'buys')} and ${s.sells.text} closing ${plural(s.sells, 'sale', 'sales')}. The realised P&L is ${s.realisedPnl.text}, ${win}, and the average trade size is ${s.avgTradeSize.text}.`;
    }
    case 'bot_status': {
      const b = x.get_bot_status!;
      if (!b.running) return 'Your trading bot is stopped. Start Trading Bot on the dashboard starts it.';
      const since = b.startedAt ? ` since ${b.startedAt.text}` : '';
      const paused = b.entriesPaused && b.pauseReason ? ` It opens no new position for now: ${b.pauseReason.text}.` : ' It follows the signals under your risk profile.';
      return `Your trading bot is running${since}.${paused}`;
    }
    case 'signal': {
      const s = x.get_signal!;
      const c = s.counts;
      const counts = `Of the ${c.total.text} ${s.symbol} signals so far, ${c.buy.text} were BUY, ${c.sell.text} SELL and ${c.hold.text} HOLD.`;
      if (!s.signal) return `There is no ${s.symbol} signal yet: the engine speaks once a candle has closed. ${counts}`;
      const sig = s.signal;
      return (
        `The latest ${s.symbol} signal is ${sig.type.text} with ${sig.confidence.text} confidence${sig.mixed ? ' (mixed evidence)' : ''}, at ${sig.price.text} on ${sig.time.text}. ` +
        `Its reasons: ${sig.reasons.map((f) => f.text).join('; ')}. ${counts} It is a rule applied to indicators, not financial advice.`
      );
    }
    case 'indicators': {
      const i = x.get_indicators!;
      const missing = 'not enough history yet';
      const rsi = i.rsi ? `RSI is ${i.rsi.text} (${i.rsiReading}: below ${i.rsiOversold.text} is oversold, above ${i.rsiOverbought.text} overbought)` : `RSI: ${missing}`;
      const macd = i.macd && i.macdSignal ? `MACD ${i.macd.text} against its signal line ${i.macdSignal.text} (${i.macdReading})` : `MACD: ${missing}`;
      const sma20 = i.sma20 ? `SMA20 ${i.sma20.text} (${i.ma20Reading})` : `SMA20: ${missing}`;
      const sma50 = i.sma50 ? `SMA50 ${i.sma50.text}` : `SMA50: ${missing}`;
      const ema20 = i.ema20 ? `EMA20 ${i.ema20.text}` : `EMA20: ${missing}`;
      const volume = i.volume ? `volume ${i.volume.text}` : `volume: ${missing}`;
      return `On the ${i.interval.text}-minute candle of ${i.candleTime.text}, ${i.symbol} closed at ${i.price.text}. ${rsi}; ${macd}; ${sma20}; ${sma50}; ${ema20}; ${volume}.`;
    }
    case 'price': {
      const p = x.get_price!;
      return `${p.symbol} is at ${p.price.text}${p.change24h ? ` (${p.change24h.text} over the last day)` : ''}, as of ${p.at.text}.`;
    }
    case 'risk_profile':
      return riskProfileText(x.get_risk_profile!);
    case 'risk_status': {
      const s = x.get_risk_status!;
      const paused = s.entriesPaused && s.pauseReason ? ` New entries are paused: ${s.pauseReason.text}.` : '';
      return (
        `Today your P&L is ${s.dailyPnl.text}; of your ${s.dailyLossLimit.text} daily loss limit, ${s.dailyLossUsed.text} is used (${s.dailyLossUsedPercent.text}). ` +
        `Your portfolio is ${s.drawdown.text} below its recorded peak of ${s.peak.text} (your maximum drawdown is ${s.maxDrawdown.text}).${paused} ` +
        `If every stop were hit, your ${s.openPositions.text} open ${plural(s.openPositions, 'position', 'positions')} would lose ${s.portfolioRisk.text}, ${s.portfolioRiskPercent.text} of the portfolio.`
      );
    }
    case 'alerts': {
      const a = x.get_alerts!;
      if (a.alerts.length === 0) return 'You have no risk alerts.';
      return `You have ${a.total.text} risk ${plural(a.total, 'alert', 'alerts')}, ${a.unacknowledged.text} not acknowledged, newest first:\n${list(a.alerts.map(alertLine))}`;
    }
    case 'subscription': {
      const s = x.get_subscription!;
      const end = s.cancelled && s.endsAt ? ` It is cancelled: your access continues until ${s.endsAt.text}${s.daysRemaining ? `, ${s.daysRemaining.text} ${plural(s.daysRemaining, 'day', 'days')} from now` : ''}, and you can reactivate it before then.` : '';
      return `You are on the ${s.plan.text} plan (${s.tier.text}, ${s.status.text}) at ${s.price.text} a month.${end}`;
    }
    case 'model':
      return modelText(x.get_model_status!);
    case 'prediction':
      return `I can't predict prices, and I won't guess: I answer only from your data and what this product has measured. ${modelText(x.get_model_status!)}`;
    case 'explain': {
      const t = x.explain_term;
      if (!t) return "I don't have a definition for that term. I can explain RSI, MACD, moving averages, each stop-loss type, Kelly sizing, drawdown, Sharpe, profit factor, walk-forward and more.";
      return `${t.title}: ${t.text}`;
    }
    case 'what_if':
      return whatIfText(r, x);
    case 'my_backtests': {
      const b = x.my_backtests;
      if (!b || b.backtests.length === 0) {
        return "You have no backtests yet. Run one on the Backtesting screen: choose a strategy, a coin and a period, and it replays the market through the same engine your paper bot trades with. I can also explain what a backtest, the Sharpe ratio, profit factor or walk-forward analysis is.";
      }
      const head = b.count.value === 1 ? 'Your latest backtest' : `Your ${b.count.text} latest backtests, newest first`;
      return `${head}:\n${list(b.backtests.map(backtestLine))}`;
    }
    case 'action':
      return "I can't act on your account: I only answer questions, so I place no trade and change no setting. The dashboard's Quick Actions start, pause and reset the bot and place trades; Risk Management changes your risk profile.";
    case 'unknown':
      return `That is outside what I know, and I won't make up an answer: I answer from your own paper-trading data and this product's engines. You can ask me about ${CAPABILITIES}.`;
  }
}

const SETTING_WORDS: Readonly<Record<WhatIfSetting, string>> = { stopLoss: 'a fixed stop loss of', takeProfit: 'a take profit of', maxPositionSize: 'a maximum position size of' };

/** "an" before a vowel (an ATR stop, an adaptive one), else "a". */
const article = (word: string): 'a' | 'an' => (/^[aeiou]/i.test(word) ? 'an' : 'a');

function whatIfText(r: Recognised, x: PlanResults): string {
  const problem = r.whatIf ? whatIfProblem(r.whatIf) : 'no setting';
  if (problem === 'no setting') {
    return "I can replay a what-if through the backtester: name the setting and its value in percent (your stop loss, take profit or maximum position size) and, if you like, the period, for example \u201cwhat if my stop loss were three percent over the last thirty days?\u201d. I then run your profile as it is and with that change over the same days and compare the figures.";
  }
  if (problem === 'out of bounds') return "That value is outside the range Risk Management allows for that setting, so I won't replay it. Risk Management shows each setting's range.";
  if (problem === 'period too long') return 'A what-if replays at most the last ninety days; ask for a shorter period.';
  if (problem === 'period too short') return 'A what-if replays at least the last day; ask for one to ninety days.';
  const w = x.what_if_backtest;
  if (!w) return "I can't run what-ifs here: the backtester replays the simulated market, and this deployment reads another market. I won't guess a figure in its place.";
  const run = (label: string, k: typeof w.current) => {
    const win = k.winRate ? `, a win rate of ${k.winRate.text}` : '';
    return `${label} (${article(k.stopType.text)} ${k.stopType.text} stop of ${k.stopValue.text}, a take profit of ${k.takeProfit.text}, positions up to ${k.maxPositionSize.text}): ${k.totalReturn.text}, ending at ${k.finalBalance.text}, with ${k.closedTrades.text} closed ${plural(k.closedTrades, 'trade', 'trades')}${win} and a maximum drawdown of ${k.maxDrawdown.text}.`;
  };
  return (
    `I replayed the last ${w.days.text} days of ${w.symbol} (${w.start.text} to ${w.end.text}) through the backtester, following the house signals as your paper bot does, from ${w.startingCash.text}, with the same fills, stops and risk rules as paper trading.\n` +
    list([run('With your profile as it is', w.current), run(`With ${SETTING_WORDS[w.setting]} ${w.value.text}`, w.changed)]) +
    `\nThis is ${w.symbol} alone: your bot trades every coin, so it is that coin's share of what it would have done, and past figures say nothing certain about the next days.`
  );
}

function backtestLine(b: BacktestItemResult): string {
  const run = `${b.strategy.text} on ${b.symbol}, ${b.start.text} to ${b.end.text}`;
  if (b.totalTrades && b.winRate && b.totalReturn) return `${run}: ${b.totalTrades.text} closed ${plural(b.totalTrades, 'trade', 'trades')}, win rate ${b.winRate.text}, total return ${b.totalReturn.text}.`;
  return `${run}: ${b.status.text}.`;
}

function positionLine(p: PositionResult): string {
  const stop = p.stopLoss ? `stop ${p.stopLoss.text}` : 'no stop';
  const target = p.takeProfit ? `target ${p.takeProfit.text}` : 'no target';
  return `${p.symbol}: ${p.quantity.text} at an average ${p.entryPrice.text}, now ${p.currentPrice.text}, unrealised ${p.unrealisedPnl.text}; ${stop}, ${target} (${p.exitRule.text}); ${p.riskPercentage.text} of the portfolio at risk.`;
}

function tradeLine(t: TradeResult): string {
  const pnl = t.pnl ? `, P&L ${t.pnl.text}` : '';
  const why = t.decision ? ` Bot: ${t.decision.text}.` : t.manual ? ' Manual order.' : '';
  return `${t.time.text}: ${t.type} ${t.amount.text} at ${t.price.text} (${t.source.text}, ${t.status.text}${pnl}).${why}`;
}

function whyTrade(t: TradeResult): string {
  if (t.closeReason === 'STOP_LOSS') return `It was not a decision of the moment: the price reached your position's stop loss, so the position was sold to cap the loss.${t.pnl ? ` Its realised P&L: ${t.pnl.text}.` : ''}`;
  if (t.closeReason === 'TAKE_PROFIT') return `The price reached your position's take profit, so the position was sold to lock in the gain.${t.pnl ? ` Its realised P&L: ${t.pnl.text}.` : ''}`;
  if (t.manual) {
    const exits = t.exits ? ` Its exits: ${t.exits.text}.` : '';
    return `You placed it yourself (a manual order), so no signal or rule decided it.${exits}`;
  }
  const parts: string[] = ['The trading bot placed it.'];
  if (t.signal) parts.push(`It followed this signal: ${t.signal.text}.`);
  if (t.decision) parts.push(`The bot's rule: ${t.decision.text}.`);
  if (!t.signal && !t.decision) parts.push(`It came from a ${t.source.text}; no further record of the decision was kept for it.`);
  return parts.join(' ');
}

/** What each kind of alert means for the account (risk-watch.ts raises them; the bot's rules act on the same conditions). */
const ALERT_MEANING: Readonly<Record<AlertResult['kind'], string>> = {
  DAILY_LOSS: "today's realised losses have used that much of your daily loss limit; once they reach it, the bot opens no new position until the UTC day ends",
  DRAWDOWN: 'your portfolio is further below its peak than your maximum drawdown, so the bot opens no new position until it recovers',
  POSITION_SIZE: 'one position has grown above your maximum position size as a share of the portfolio; the bot sizes new entries within it but does not trim a position that grew',
  CONCURRENT_TRADES: 'more positions are open than your maximum, so the bot opens no new one until some close',
  VOLATILITY: "the coin's range over the last day is above your volatility threshold, so the bot opens no new position in it meanwhile",
};

function alertLine(a: AlertResult): string {
  const state = a.resolved ? ', resolved' : a.acknowledged ? ', acknowledged' : '';
  return `${a.severity.text} (${a.time.text}${state}): ${a.message.text}. What it means: ${ALERT_MEANING[a.kind]}.`;
}

function riskProfileText(p: RiskProfileResult): string {
  const stop =
    p.stopLossType === 'fixed'
      ? `${p.stopLossValue.text} below the entry price`
      : p.stopLossType === 'trailing'
        ? `${p.stopLossValue.text} below the highest price since the entry`
        : p.stopLossType === 'atr'
          ? `${p.stopLossValue.text} times the coin's ATR14 below the entry`
          : `${p.stopLossValue.text} times sigma times the entry price below it`;
  return (
    `Your risk profile${p.customised ? '' : ' (the defaults, never changed)'}: positions of at most ${p.maxPositionSize.text} of the portfolio; ${article(p.stopLossType_.text)} ${p.stopLossType_.text} stop loss ${stop}, and a take profit at ${p.takeProfitRatio.text} times the stop's distance (${p.takeProfit.text} in Bot Settings); ` +
    `a minimum reward/risk of ${p.riskRewardRatio.text}; a daily loss limit of ${p.maxDailyLoss.text}; a maximum drawdown of ${p.maxDrawdown.text}; at most ${p.maxConcurrentTrades.text} open ${plural(p.maxConcurrentTrades, 'position', 'positions')}; ` +
    `Kelly sizing ${p.kelly.text}, dynamic sizing ${p.dynamicSizing.text}; a correlation limit of ${p.correlationLimit.text}; and a volatility threshold of ${p.volatilityThreshold.text}.`
  );
}

function modelText(m: ToolResults['get_model_status']): string {
  if (m.status === 'NOT_TRAINED') return 'No model has been trained yet, so there is no measured accuracy to report.';
  const training = m.training ? (m.training.running ? ' A training of it is running now.' : ` A training of it is queued, number ${m.training.queuePosition.text} in the queue.`) : '';
  if (m.status === 'TRAINING' || !m.accuracy || !m.baseline) return `${capitalise(m.owner.text)} (${m.model.text}) has no measured accuracy yet: its first training has not ended.${training}`;
  const interval = m.intervalLow && m.intervalHigh ? ` (${m.intervalLevel.text} interval ${m.intervalLow.text} to ${m.intervalHigh.text})` : '';
  const samples = m.testSamples ? ` on ${m.testSamples.text} held-out candles` : ' on held-out candles';
  const when = m.lastTraining ? `, last trained ${m.lastTraining.text}` : '';
  const verdict =
    m.verdict?.value === 'edge'
      ? `The verdict is ${m.verdict.text}: the interval's lower end is above the baseline.`
      : `The verdict is ${m.verdict?.text ?? 'not given'}: the interval holds the baseline, so the accuracy could be luck; treat the signals with that in mind.`;
  return `${capitalise(m.owner.text)} is a ${m.model.text} trained on ${m.trainingDays.text} days of candles${when}. It called the next candle's direction right ${m.accuracy.text} of the time${samples}${interval}, against a baseline of ${m.baseline.text} for always guessing the more common direction. ${verdict}${training}`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
