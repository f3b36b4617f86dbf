/**
 * Real trading switched on without the person's confirmation is a 400 whose problem body names the
 * two fields the screen marks (the switch and the confirmation); the settings live on
 * `settings-{userId}`; a command the decider does not know is refused.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { ValidationError } from '../shared/errors';
import { accountSettingsStreamId } from './account-settings';
import { accountSettingsDecider, REAL_TRADING_NEEDS_CONFIRMATION, type AccountSettingsCommand } from './account-settings.decider';

const now = '2026-03-04T05:06:07.000Z';

describe('account settings: the real trading confirmation', function () {
  it('names the real trading switch and its confirmation as the fields at fault', function () {
    const command: AccountSettingsCommand = { type: 'ChangeTradingMode', data: { userId: 'u1', changes: { realTrading: true }, confirmRealTrading: false }, metadata: { now } };
    let thrown: unknown;
    try {
      accountSettingsDecider.decide(command, fold(accountSettingsDecider, []));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(ValidationError);
    expect((thrown as ValidationError).message).to.equal(REAL_TRADING_NEEDS_CONFIRMATION);
    expect((thrown as ValidationError).extra).to.deep.equal({ fields: ['enableRealTrading', 'confirmRealTrading'] });
  });

  it('keeps each person\'s settings on their own stream', function () {
    expect(accountSettingsStreamId('u1')).to.equal('settings-u1');
  });

  it('refuses a command it does not know instead of appending nothing', function () {
    const unknown = { type: 'ResetSettings', data: { userId: 'u1' }, metadata: { now } } as unknown as AccountSettingsCommand;
    expect(() => accountSettingsDecider.decide(unknown, fold(accountSettingsDecider, []))).to.throw(Error, 'unexpected value');
  });
});
