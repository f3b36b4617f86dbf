/**
 * The one risk profile and the bot settings screen (risk-profile.ts): a settings change sets exactly
 * the profile fields it names (a take profit as a ratio of the stop in force, or of the stop the same
 * change sets, within 1 to 10 stops), a change stored before the one profile sets the stop and the
 * ratio only when it named either, and a document from before the profile reads as its two sets joined.
 */
import { expect } from 'chai';
import { ValidationError } from '../shared/errors';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS, DEFAULT_RISK_PROFILE } from './contracts';
import { profileChangesFromBotSettings, profileChangesFromV1BotSettings, profileFromLegacyDocument } from './risk-profile';

describe('risk profile from bot settings', function () {
  const profile = { ...DEFAULT_RISK_PROFILE };

  it('a change sets the profile fields it names and no other', function () {
    expect(profileChangesFromBotSettings({ maxPositionSize: 7 }, profile)).to.deep.equal({ maxPositionSize: 7 });
    expect(profileChangesFromBotSettings({ dailyLossLimit: 250 }, profile)).to.deep.equal({ maxDailyLoss: 250 });
    expect(profileChangesFromBotSettings({ enableNotifications: false }, profile)).to.deep.equal({ enableNotifications: false });
    expect(profileChangesFromBotSettings({ autoRetrain: false }, profile)).to.deep.equal({ autoRetrain: false });
    expect(profileChangesFromBotSettings({ stopLossPercent: 3 }, profile)).to.deep.equal({ stopLossValue: 3 });
    expect(profileChangesFromBotSettings({}, profile)).to.deep.equal({});
  });

  it('a take profit is a ratio of the stop (the new one when the change sets one), from 1 to 10 stops inclusive', function () {
    expect(profileChangesFromBotSettings({ takeProfitPercent: 6 }, profile)).to.deep.equal({ takeProfitRatio: 3 });
    expect(profileChangesFromBotSettings({ stopLossPercent: 4, takeProfitPercent: 6 }, profile)).to.deep.equal({ stopLossValue: 4, takeProfitRatio: 1.5 });
    expect(profileChangesFromBotSettings({ takeProfitPercent: 2 }, profile)).to.deep.equal({ takeProfitRatio: 1 });
    expect(profileChangesFromBotSettings({ takeProfitPercent: 20 }, profile)).to.deep.equal({ takeProfitRatio: 10 });
    // 0.3 x 10 is 3.0000000000000004 in floats: still the bound.
    expect(profileChangesFromBotSettings({ stopLossPercent: 0.3, takeProfitPercent: 3 }, profile).takeProfitRatio).to.equal(10);
    let error: unknown;
    try {
      profileChangesFromBotSettings({ stopLossPercent: 3, takeProfitPercent: 31 }, profile);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as ValidationError).message).to.equal('takeProfit must be from 1 to 10 times the stop loss of 3: from 3 to 30, got 31');
    expect((error as ValidationError).extra).to.deep.equal({ field: 'takeProfit' });
    expect(() => profileChangesFromBotSettings({ takeProfitPercent: 1.9 }, profile)).to.throw(ValidationError, 'from 2 to 20, got 1.9');
  });

  it('a change stored before the one profile sets the stop and ratio from its settings only when it named either', function () {
    const settings = { ...DEFAULT_BOT_SETTINGS, stopLossPercent: 4, takeProfitPercent: 12 };
    expect(profileChangesFromV1BotSettings({ maxPositionSize: 6 }, settings)).to.deep.equal({ maxPositionSize: 6 });
    expect(profileChangesFromV1BotSettings({ takeProfitPercent: 12 }, settings)).to.deep.equal({ stopLossValue: 4, takeProfitRatio: 3 });
    expect(profileChangesFromV1BotSettings({ stopLossPercent: 4 }, settings)).to.deep.equal({ stopLossValue: 4, takeProfitRatio: 3 });
  });

  it('a document from before the profile: its parameters, with the bot\'s settings over them; parameters alone when it had no settings', function () {
    const parameters = { ...DEFAULT_RISK_PARAMETERS, maxDrawdown: 20 };
    expect(profileFromLegacyDocument({ parameters })).to.deep.equal({ ...DEFAULT_RISK_PROFILE, maxDrawdown: 20 });
    expect(profileFromLegacyDocument({})).to.deep.equal({ ...DEFAULT_RISK_PROFILE });
    const settings = { ...DEFAULT_BOT_SETTINGS, maxPositionSize: 9, stopLossPercent: 4, takeProfitPercent: 12 };
    expect(profileFromLegacyDocument({ settings, parameters })).to.deep.include({ maxDrawdown: 20, maxPositionSize: 9, stopLossValue: 4, takeProfitRatio: 3 });
  });
});
