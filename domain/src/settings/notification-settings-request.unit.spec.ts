/**
 * POST /api/settings/notifications takes at least one switch: a body whose switches are all absent
 * (left out or undefined) is refused, and one switch given among absent ones is enough.
 */
import { expect } from 'chai';
import { notificationSettingsRequestSchema } from './contracts';

describe('settings contracts: at least one notification switch', function () {
  it('refuses a body whose every switch is undefined', function () {
    const result = notificationSettingsRequestSchema.safeParse({ botTrades: undefined, riskAlerts: undefined });
    expect(result.success).to.equal(false);
    expect(result.error?.issues.map((i) => i.message)).to.deep.equal(['at least one setting is required']);
  });

  it('takes one switch beside undefined ones', function () {
    expect(notificationSettingsRequestSchema.safeParse({ botTrades: undefined, mirrorFills: false }).success).to.equal(true);
  });
});
