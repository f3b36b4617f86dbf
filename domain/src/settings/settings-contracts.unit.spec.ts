/**
 * The Settings screen's request contracts (keys and secrets in pairs, the passphrase only with
 * Coinbase's keys, empty fields as absent, at least one setting) and the account-settings read model
 * (defaults for what a user never changed, each event replacing its own part).
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_NOTIFICATIONS, DEFAULT_TRADING_MODE } from './account-settings';
import { ACCOUNT_SETTINGS_PROJECTION, accountSettingsDocumentIds, accountSettingsResponse, evolveAccountSettingsView } from './account-settings-view';
import { accountSettingsResponseSchema, apiSettingsRequestSchema, NOTIFICATION_LABELS, notificationKinds, notificationSettingsRequestSchema } from './contracts';

const KEY = 'k'.repeat(24);
const SECRET = 's'.repeat(32);

/** The messages of a refused body, by path. */
function refusals(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }): string[] {
  expect(result.success, 'refused').to.equal(false);
  return result.error!.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`);
}

describe('settings contracts: POST /api/settings/api', function () {
  it('takes a key with its secret for either exchange, the passphrase with Coinbase\'s pair, and the trading switches', function () {
    expect(apiSettingsRequestSchema.parse({ binanceKey: KEY, binanceSecret: SECRET })).to.deep.equal({ binanceKey: KEY, binanceSecret: SECRET });
    expect(apiSettingsRequestSchema.parse({ coinbaseKey: KEY, coinbaseSecret: SECRET, coinbasePassphrase: 'pass-phrase' })).to.deep.equal({ coinbaseKey: KEY, coinbaseSecret: SECRET, coinbasePassphrase: 'pass-phrase' });
    expect(apiSettingsRequestSchema.parse({ enablePaperTrading: false })).to.deep.equal({ enablePaperTrading: false });
    expect(apiSettingsRequestSchema.parse({ enableRealTrading: true, confirmRealTrading: true })).to.deep.equal({ enableRealTrading: true, confirmRealTrading: true });
  });

  it('reads empty strings as absent (the form sends every field)', function () {
    expect(apiSettingsRequestSchema.parse({ binanceKey: '', binanceSecret: '', coinbaseKey: KEY, coinbaseSecret: SECRET, coinbasePassphrase: '', enablePaperTrading: true })).to.deep.equal({
      binanceKey: undefined,
      binanceSecret: undefined,
      coinbaseKey: KEY,
      coinbaseSecret: SECRET,
      coinbasePassphrase: undefined,
      enablePaperTrading: true,
    });
  });

  it('refuses a key without its secret and a secret without its key, naming the missing one, for each exchange', function () {
    expect(refusals(apiSettingsRequestSchema.safeParse({ binanceKey: KEY }))).to.deep.equal(['binanceSecret: binanceSecret is required with binanceKey']);
    expect(refusals(apiSettingsRequestSchema.safeParse({ binanceSecret: SECRET }))).to.deep.equal(['binanceKey: binanceKey is required with binanceSecret']);
    expect(refusals(apiSettingsRequestSchema.safeParse({ coinbaseKey: KEY, binanceKey: '' }))).to.deep.equal(['coinbaseSecret: coinbaseSecret is required with coinbaseKey']);
    expect(refusals(apiSettingsRequestSchema.safeParse({ coinbaseSecret: SECRET, binanceKey: KEY, binanceSecret: SECRET }))).to.deep.equal(['coinbaseKey: coinbaseKey is required with coinbaseSecret']);
  });

  it('refuses a passphrase without Coinbase\'s key', function () {
    expect(refusals(apiSettingsRequestSchema.safeParse({ coinbasePassphrase: 'pass-phrase', enablePaperTrading: true }))).to.deep.equal(['coinbasePassphrase: coinbasePassphrase is only taken with coinbaseKey and coinbaseSecret']);
    expect(refusals(apiSettingsRequestSchema.safeParse({ coinbasePassphrase: 'pass-phrase', binanceKey: KEY, binanceSecret: SECRET }))).to.deep.equal(['coinbasePassphrase: coinbasePassphrase is only taken with coinbaseKey and coinbaseSecret']);
  });

  it('refuses a body with no setting (empty strings only included), unknown fields and switches that are not booleans', function () {
    expect(refusals(apiSettingsRequestSchema.safeParse({}))).to.deep.equal([': at least one setting is required']);
    expect(refusals(apiSettingsRequestSchema.safeParse({ binanceKey: '', binanceSecret: '', coinbasePassphrase: '' }))).to.deep.equal([': at least one setting is required']);
    expect(apiSettingsRequestSchema.safeParse({ enablePaperTrading: true, other: 1 }).success).to.equal(false);
    expect(refusals(apiSettingsRequestSchema.safeParse({ enableRealTrading: 'yes' }))).to.deep.equal(['enableRealTrading: must be true or false']);
    expect(refusals(apiSettingsRequestSchema.safeParse({ confirmRealTrading: 1 }))).to.deep.equal(['confirmRealTrading: must be true or false']);
  });
});

describe('settings contracts: POST /api/settings/notifications', function () {
  it('takes any of the switches, and refuses none, an unknown one or one that is not a boolean', function () {
    for (const kind of notificationKinds) expect(notificationSettingsRequestSchema.parse({ [kind]: false })).to.deep.equal({ [kind]: false });
    expect(notificationSettingsRequestSchema.parse({ botTrades: true, riskAlerts: false })).to.deep.equal({ botTrades: true, riskAlerts: false });
    expect(refusals(notificationSettingsRequestSchema.safeParse({}))).to.deep.equal([': at least one setting is required']);
    expect(notificationSettingsRequestSchema.safeParse({ emails: true }).success).to.equal(false);
    expect(refusals(notificationSettingsRequestSchema.safeParse({ botStatus: 'off' }))).to.deep.equal(['botStatus: must be true or false']);
  });

  it('labels every switch for the Notifications tab', function () {
    expect(Object.keys(NOTIFICATION_LABELS)).to.deep.equal([...notificationKinds]);
    for (const kind of notificationKinds) expect(NOTIFICATION_LABELS[kind].label.length, kind).to.be.greaterThan(0);
  });
});

describe('account-settings read model', function () {
  const off = { type: 'NotificationPreferencesChanged', data: { userId: 'u1', preferences: { botTrades: false, botStatus: true, riskAlerts: false, mirrorFills: true }, changedAt: '2026-03-04T05:06:07.000Z' } } as const;
  const real = { type: 'TradingModeChanged', data: { userId: 'u1', mode: { paperTrading: false, realTrading: true }, changedAt: '2026-03-04T05:07:07.000Z' } } as const;
  const other: DomainEvent = { type: 'UserRegistered', data: { userId: 'u1' } };

  it('keeps one document per user, from the settings events only', function () {
    expect(ACCOUNT_SETTINGS_PROJECTION).to.equal('account-settings');
    expect(accountSettingsDocumentIds(off)).to.deep.equal(['u1']);
    expect(accountSettingsDocumentIds(real)).to.deep.equal(['u1']);
    expect(accountSettingsDocumentIds(other)).to.deep.equal([]);
  });

  it('starts from the defaults, and each event replaces its own part only', function () {
    const first = evolveAccountSettingsView(null, off);
    expect(first).to.deep.equal({ userId: 'u1', notifications: off.data.preferences, tradingMode: { ...DEFAULT_TRADING_MODE } });
    const both = evolveAccountSettingsView(first, real);
    expect(both).to.deep.equal({ userId: 'u1', notifications: off.data.preferences, tradingMode: real.data.mode });
    expect(evolveAccountSettingsView(null, real)).to.deep.equal({ userId: 'u1', notifications: { ...DEFAULT_NOTIFICATIONS }, tradingMode: real.data.mode });
    // Copies: a later change to an event's data or to the defaults reaches no document.
    expect(both!.notifications).to.not.equal(off.data.preferences);
    expect(both!.tradingMode).to.not.equal(real.data.mode);
    expect(evolveAccountSettingsView(null, off)!.tradingMode).to.not.equal(DEFAULT_TRADING_MODE);
    expect(evolveAccountSettingsView(null, real)!.notifications).to.not.equal(DEFAULT_NOTIFICATIONS);
  });

  it('passes any other event by, with or without a document', function () {
    expect(evolveAccountSettingsView(null, other)).to.equal(null);
    const doc = evolveAccountSettingsView(null, off);
    expect(evolveAccountSettingsView(doc, other)).to.equal(doc);
  });

  it('answers GET /api/settings with the defaults for a user who changed nothing, and the document over them', function () {
    expect(accountSettingsResponseSchema.parse(accountSettingsResponse(null))).to.deep.equal({ notifications: { botTrades: true, botStatus: true, riskAlerts: true, mirrorFills: true }, tradingMode: { paperTrading: true, realTrading: false } });
    const doc = evolveAccountSettingsView(evolveAccountSettingsView(null, off), real);
    expect(accountSettingsResponse(doc)).to.deep.equal({ notifications: off.data.preferences, tradingMode: real.data.mode });
    expect(accountSettingsResponse(evolveAccountSettingsView(null, real))).to.deep.equal({ notifications: { ...DEFAULT_NOTIFICATIONS }, tradingMode: real.data.mode });
  });
});
