/**
 * The trading request contracts where a person meets them: a manual BUY may carry a stop loss and a
 * take profit (in percent of its fill price) and they reach the command, a SELL may not (it opens
 * nothing); the refusals name the field and say why; a settings body with nothing set is refused;
 * the bot settings answer under both the domain's and the spec's names, with the stop's unit.
 */
import { expect } from 'chai';
import { botSettingsRequestSchema, botSettingsView, placeTradeRequestSchema } from './contracts';

const issuesOf = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) => result.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));

describe('trading contracts: exits, coins and settings as a person meets them', function () {
  it('hands a BUY\'s stop loss and take profit percents on to the command', function () {
    expect(placeTradeRequestSchema.parse({ symbol: 'eth', type: 'BUY', amount: 0.5, stopLossPercent: 3, takeProfitPercent: 12.5 })).to.deep.equal({
      symbol: 'ETH',
      side: 'BUY',
      amount: 0.5,
      stopLossPercent: 3,
      takeProfitPercent: 12.5,
    });
    expect(placeTradeRequestSchema.parse({ symbol: 'ETH', type: 'BUY', amount: 0.5, takeProfitPercent: 20 })).to.deep.equal({ symbol: 'ETH', side: 'BUY', amount: 0.5, takeProfitPercent: 20 });
  });

  it('refuses a stop loss or a take profit on a SELL, naming each field', function () {
    const message = 'applies to a BUY only (a SELL opens no position)';
    expect(issuesOf(placeTradeRequestSchema.safeParse({ symbol: 'ETH', type: 'SELL', amount: 0.5, stopLossPercent: 3 }))).to.deep.equal([{ path: 'stopLossPercent', message }]);
    expect(issuesOf(placeTradeRequestSchema.safeParse({ symbol: 'ETH', type: 'SELL', amount: 0.5, stopLossPercent: 3, takeProfitPercent: 9 }))).to.deep.equal([
      { path: 'stopLossPercent', message },
      { path: 'takeProfitPercent', message },
    ]);
    expect(placeTradeRequestSchema.parse({ symbol: 'ETH', type: 'SELL', amount: 0.5 })).to.deep.equal({ symbol: 'ETH', side: 'SELL', amount: 0.5 });
  });

  it('says a coin is required when neither is given, and which coin id a disagreeing symbol does not match', function () {
    expect(issuesOf(placeTradeRequestSchema.safeParse({ type: 'BUY', amount: 1 }))).to.deep.equal([{ path: 'symbol', message: 'a coinId or a symbol is required' }]);
    expect(issuesOf(placeTradeRequestSchema.safeParse({ coinId: 'bitcoin', symbol: 'ETH', type: 'BUY', amount: 1 }))).to.deep.equal([{ path: 'symbol', message: 'does not match coinId bitcoin' }]);
  });

  it('refuses a settings body whose every setting is left undefined (a form with nothing filled in)', function () {
    const result = botSettingsRequestSchema.safeParse({ stopLoss: undefined, takeProfit: undefined });
    expect(result.success).to.equal(false);
    expect(issuesOf(result)).to.deep.equal([{ path: '', message: 'at least one setting is required' }]);
    expect(botSettingsRequestSchema.parse({ stopLoss: undefined, autoRetrain: false })).to.deep.equal({ autoRetrain: false });
  });

  it('answers the bot settings under the domain names and the spec names, with the stop type and what it measures', function () {
    const settings = { maxPositionSize: 8, stopLossPercent: 1.5, takeProfitPercent: 4.5, dailyLossLimit: 700, enableNotifications: false, autoRetrain: true };
    expect(botSettingsView(settings, 'atr')).to.deep.equal({ ...settings, stopLoss: 1.5, takeProfit: 4.5, stopLossType: 'atr', stopLossUnit: 'atr' });
    expect(botSettingsView(settings, 'trailing')).to.deep.include({ stopLoss: 1.5, takeProfit: 4.5, stopLossType: 'trailing', stopLossUnit: 'percent' });
    expect(botSettingsView(settings, 'volatility')).to.deep.include({ stopLossUnit: 'sigma' });
  });
});
