import type { BotRule } from '@papertrade/domain/trading/contracts';

/** The paper bot's rule names as every screen shows them (Trade History's Decision column and Bot Decisions list, a backtest's fills). */
export const botRuleLabels: Record<BotRule, string> = {
  SELL_SIGNAL: 'Sell signal',
  FIXED_SIZE: 'Fixed size',
  KELLY_SIZE: 'Kelly size',
  DYNAMIC_SIZE: 'Dynamic size',
  ARBITRAGE_PAIR: 'Arbitrage pair',
  DAILY_LOSS_LIMIT: 'Daily loss limit',
  MAX_DRAWDOWN: 'Max drawdown',
  POSITION_ALREADY_OPEN: 'Position open',
  MAX_CONCURRENT_TRADES: 'Max concurrent trades',
  VOLATILITY_THRESHOLD: 'Volatility threshold',
  CORRELATION_LIMIT: 'Correlation limit',
  REWARD_RISK: 'Risk/reward',
  KELLY_NO_EDGE: 'Kelly: no edge',
  TOO_SMALL: 'Too small',
  MARKET_DATA_UNAVAILABLE: 'No market data',
};

/** A rule's label; a rule this client does not know (a newer server's) as sent. */
export function botRuleLabel(rule: string): string {
  return Object.prototype.hasOwnProperty.call(botRuleLabels, rule) ? botRuleLabels[rule as BotRule] : rule;
}
