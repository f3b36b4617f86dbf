/**
 * Which look-ups each question makes before the assistant answers (answers.ts `planFor`): the
 * caller's own data, narrowed to the coin and the side the question names, ETH when a coin question
 * names none, the last trade alone for "why", and nothing at all for what the assistant does not look
 * up (help, an order, an unknown question, a what-if it will not run).
 */
import { expect } from 'chai';
import { planFor, type ToolCall } from './answers';
import type { Intent, Recognised } from './intents';

const asked = (intent: Intent, extra: Partial<Recognised> = {}): Recognised => ({ intent, symbol: null, term: null, side: null, ...extra });

describe('assistant: the look-ups behind each answer', () => {
  it('who I am, my portfolio, my P&L: my profile, plan, portfolio and trade summary', () => {
    const table: Array<[Intent, ToolCall[]]> = [
      ['greeting', [{ name: 'get_profile', input: {} }]],
      ['who_am_i', [{ name: 'get_profile', input: {} }, { name: 'get_subscription', input: {} }]],
      ['portfolio', [{ name: 'get_portfolio', input: {} }]],
      ['pnl_today', [{ name: 'get_portfolio', input: {} }]],
      ['pnl_total', [{ name: 'get_portfolio', input: {} }, { name: 'get_trade_summary', input: {} }]],
      ['trade_stats', [{ name: 'get_trade_summary', input: {} }]],
      ['bot_status', [{ name: 'get_bot_status', input: {} }]],
      ['risk_profile', [{ name: 'get_risk_profile', input: {} }]],
      ['risk_status', [{ name: 'get_risk_status', input: {} }]],
      ['alerts', [{ name: 'get_alerts', input: {} }]],
      ['subscription', [{ name: 'get_subscription', input: {} }]],
      ['model', [{ name: 'get_model_status', input: {} }]],
      ['prediction', [{ name: 'get_model_status', input: {} }]],
      ['my_backtests', [{ name: 'my_backtests', input: {} }]],
    ];
    for (const [intent, calls] of table) expect(planFor(asked(intent)), intent).to.deep.equal(calls);
  });

  it('positions, trades and refusals are narrowed to the coin and side the question names, and not otherwise', () => {
    expect(planFor(asked('positions'))).to.deep.equal([{ name: 'get_positions', input: {} }]);
    expect(planFor(asked('positions', { symbol: 'SOL' }))).to.deep.equal([{ name: 'get_positions', input: { symbol: 'SOL' } }]);
    expect(planFor(asked('recent_trades'))).to.deep.equal([{ name: 'get_trades', input: { limit: 5 } }]);
    expect(planFor(asked('recent_trades', { symbol: 'BTC', side: 'SELL' }))).to.deep.equal([{ name: 'get_trades', input: { limit: 5, symbol: 'BTC', type: 'SELL' } }]);
    expect(planFor(asked('bot_refusals'))).to.deep.equal([{ name: 'get_bot_refusals', input: { limit: 3 } }]);
    expect(planFor(asked('bot_refusals', { symbol: 'SOL', side: 'BUY' }))).to.deep.equal([{ name: 'get_bot_refusals', input: { limit: 3, symbol: 'SOL' } }]);
  });

  it('why a trade happened looks at the last trade only, of the coin and side asked about', () => {
    expect(planFor(asked('trade_reason'))).to.deep.equal([{ name: 'get_trades', input: { limit: 1 } }]);
    expect(planFor(asked('trade_reason', { symbol: 'ETH', side: 'BUY' }))).to.deep.equal([{ name: 'get_trades', input: { limit: 1, symbol: 'ETH', type: 'BUY' } }]);
  });

  it('a signal, the indicators or a price are of the coin named, ETH when none is', () => {
    for (const [intent, name] of [['signal', 'get_signal'], ['indicators', 'get_indicators'], ['price', 'get_price']] as const) {
      expect(planFor(asked(intent)), intent).to.deep.equal([{ name, input: { symbol: 'ETH' } }]);
      expect(planFor(asked(intent, { symbol: 'ADA' })), intent).to.deep.equal([{ name, input: { symbol: 'ADA' } }]);
    }
  });

  it('a term is looked up only when the question names one', () => {
    expect(planFor(asked('explain', { term: 'sharpe' }))).to.deep.equal([{ name: 'explain_term', input: { term: 'sharpe' } }]);
    expect(planFor(asked('explain'))).to.deep.equal([]);
  });

  it('a what-if runs on the coin named (else ETH) over the days named (else 30), and not at all when it cannot be run', () => {
    expect(planFor(asked('what_if', { whatIf: { setting: 'stopLoss', value: 3, days: null } }))).to.deep.equal([
      { name: 'what_if_backtest', input: { setting: 'stopLoss', value: 3, symbol: 'ETH', days: 30 } },
    ]);
    expect(planFor(asked('what_if', { symbol: 'BTC', whatIf: { setting: 'maxPositionSize', value: 10, days: 14 } }))).to.deep.equal([
      { name: 'what_if_backtest', input: { setting: 'maxPositionSize', value: 10, symbol: 'BTC', days: 14 } },
    ]);
    expect(planFor(asked('what_if'))).to.deep.equal([]);
    expect(planFor(asked('what_if', { whatIf: { setting: 'stopLoss', value: 30, days: null } }))).to.deep.equal([]);
  });

  it('help, an order and a question outside what it knows look nothing up', () => {
    for (const intent of ['help', 'action', 'unknown'] as const) expect(planFor(asked(intent)), intent).to.deep.equal([]);
  });
});
