/**
 * The risk decider on the one risk profile (issue 17): the defaults (bot 5 %, 2 %, 5 %, $500 =
 * parameters 5, stop 2 fixed, ratio 2.5, $500), bot settings changes as the profile fields they map
 * to (a takeProfit sets the ratio, within its bounds), a reset of the bot settings' fields, the full
 * risk parameter set with the bounds of premium-and-account.md section 5, a change on either view seen
 * on the other, stored version 1 events folded into the profile field by field, the bot's refusals,
 * and alerts (once per condition, acknowledged, acknowledged ones cleared in bulk).
 */
import { expect } from 'chai';
import { specFor } from '../shared/decider-specification';
import { NotFoundError, ValidationError } from '../shared/errors';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS, DEFAULT_RISK_PROFILE, riskParameterBounds, type BotSettings, type RiskParameters } from './contracts';
import { RISK_SCHEMA_VERSION, upcastRiskEvent, type RiskAlertKind, type RiskEvent } from './risk';
import { riskDecider, type RaiseRiskAlert } from './risk.decider';
import { botSettingsOf, parametersOf } from './risk-profile';

const spec = specFor(riskDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const meta = { now: NOW };

const raise = (alertId: string, conditionKey: string, extra: Partial<RaiseRiskAlert['data']> = {}): RaiseRiskAlert => ({
  type: 'RaiseRiskAlert',
  data: { userId: 'u1', alertId, conditionKey, kind: 'DAILY_LOSS', severity: 'high', symbol: null, message: 'Daily loss at 80% of the limit', value: 400, threshold: 500, ...extra },
  metadata: meta,
});
const raised = (alertId: string, conditionKey: string): RiskEvent => ({
  type: 'RiskAlertRaised',
  data: { userId: 'u1', alertId, conditionKey, kind: 'DAILY_LOSS', severity: 'high', symbol: null, message: 'Daily loss at 80% of the limit', value: 400, threshold: 500, raisedAt: NOW },
});
const acknowledged = (alertId: string): RiskEvent => ({ type: 'RiskAlertAcknowledged', data: { userId: 'u1', alertId, acknowledgedAt: NOW } });
const changeParameters = (parameters: RiskParameters) => ({ type: 'ChangeRiskParameters' as const, data: { userId: 'u1', parameters }, metadata: meta });
const changeSettings = (changes: Partial<BotSettings>) => ({ type: 'ChangeBotSettings' as const, data: { userId: 'u1', changes }, metadata: meta });
const profileAfter = (events: RiskEvent[]) => events.reduce(riskDecider.evolve, riskDecider.initialState()).profile;
/** The events a command appends on the stream so far, the stream growing with them. */
function run(...commands: Array<Parameters<typeof riskDecider.decide>[0]>): RiskEvent[] {
  const events: RiskEvent[] = [];
  for (const c of commands) events.push(...riskDecider.decide(c, events.reduce(riskDecider.evolve, riskDecider.initialState())));
  return events;
}

describe('risk decider', function () {
  it('starts with one profile: the spec\'s bot defaults 5%, 2%, 5%, $500 are the parameters 5, fixed 2 x ratio 2.5, $500; the rest 5, 15, 2, 0.7, 30', function () {
    expect(RISK_SCHEMA_VERSION).to.equal(3);
    expect(riskDecider.schemaVersion).to.equal(3);
    expect(riskDecider.initialState().profile).to.deep.equal({
      maxPositionSize: 5,
      maxConcurrentTrades: 5,
      maxDailyLoss: 500,
      maxDrawdown: 15,
      stopLossType: 'fixed',
      stopLossValue: 2,
      takeProfitRatio: 2.5,
      riskRewardRatio: 2,
      kellyCriterionEnabled: false,
      dynamicPositionSizing: false,
      correlationLimit: 0.7,
      volatilityThreshold: 30,
      enableNotifications: true,
      autoRetrain: true,
    });
    expect(botSettingsOf(riskDecider.initialState().profile)).to.deep.equal({ maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true });
    expect(DEFAULT_BOT_SETTINGS).to.deep.equal(botSettingsOf(DEFAULT_RISK_PROFILE));
  });

  describe('bot settings: a view of the profile', function () {
    it('a change records the profile fields it changed and the bot settings after it', function () {
      spec
        .given([])
        .when(changeSettings({ stopLossPercent: 3, dailyLossLimit: 500 }))
        .then([{ type: 'BotSettingsChanged', data: { userId: 'u1', changes: { stopLossValue: 3 }, settings: { ...DEFAULT_BOT_SETTINGS, stopLossPercent: 3, takeProfitPercent: 7.5 }, changedAt: NOW } }]);
    });

    it('maps each shared quantity to its one field: position size, stop value, daily limit; a take profit sets the ratio to the stop', function () {
      const events = run(changeSettings({ maxPositionSize: 7, stopLossPercent: 3, takeProfitPercent: 7, dailyLossLimit: 800, enableNotifications: false }));
      expect(events[0]!.data).to.deep.include({ changes: { maxPositionSize: 7, stopLossValue: 3, takeProfitRatio: 7 / 3, maxDailyLoss: 800, enableNotifications: false } });
      const profile = profileAfter(events);
      expect(parametersOf(profile)).to.include({ maxPositionSize: 7, stopLossValue: 3, takeProfitRatio: 7 / 3, maxDailyLoss: 800 });
      // Read back: 3 x 7/3, to 2 decimals the 7 sent.
      expect(botSettingsOf(profile)).to.deep.equal({ maxPositionSize: 7, stopLossPercent: 3, takeProfitPercent: 7, dailyLossLimit: 800, enableNotifications: false, autoRetrain: true });
    });

    it('a take profit alone is a ratio of the stop already set; a stop alone moves the target with it', function () {
      expect(profileAfter(run(changeSettings({ takeProfitPercent: 8 }))).takeProfitRatio).to.equal(4);
      expect(botSettingsOf(profileAfter(run(changeSettings({ stopLossPercent: 4 })))).takeProfitPercent).to.equal(10);
    });

    it('refuses a take profit outside 1 to 10 times the stop, naming takeProfit', function () {
      spec.given([]).when(changeSettings({ takeProfitPercent: 1.5 })).thenThrows(ValidationError, 'takeProfit must be from 1 to 10 times the stop loss of 2: from 2 to 20, got 1.5');
      spec.given([]).when(changeSettings({ stopLossPercent: 1, takeProfitPercent: 11 })).thenThrows(ValidationError, /^takeProfit must be from 1 to 10 times the stop loss of 1/);
      spec.given([]).when(changeSettings({ takeProfitPercent: 20 })).then([
        { type: 'BotSettingsChanged', data: { userId: 'u1', changes: { takeProfitRatio: 10 }, settings: { ...DEFAULT_BOT_SETTINGS, takeProfitPercent: 20 }, changedAt: NOW } },
      ]);
    });

    it('a change to the same values appends nothing', function () {
      spec.given([]).when(changeSettings({ maxPositionSize: 5, autoRetrain: true, takeProfitPercent: 5 })).then([]);
    });

    for (const [field, value] of [
      ['maxPositionSize', 0],
      ['maxPositionSize', 50.1],
      ['stopLossPercent', 0.4],
      ['takeProfitPercent', 101],
      ['dailyLossLimit', 49],
      ['dailyLossLimit', Number.NaN],
      ['enableNotifications', 'yes'],
      ['maxPositionSize', '5'],
      ['leverage', 10],
    ] as const) {
      it(`refuses ${field} = ${String(value)} naming the field`, function () {
        spec.given([]).when(changeSettings({ [field]: value })).thenThrows(ValidationError, new RegExp(`${field}`), { field });
      });
    }

    it('reset returns the bot settings\' fields to the defaults and keeps the other parameters; nothing when they are the defaults already', function () {
      const given = run(changeSettings({ takeProfitPercent: 8, maxPositionSize: 9 }), changeParameters({ ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 9, takeProfitRatio: 4, stopLossType: 'trailing', maxDrawdown: 25 }));
      spec
        .given(given)
        .when({ type: 'ResetBotSettings', data: { userId: 'u1' }, metadata: meta })
        .then([{ type: 'BotSettingsReset', data: { userId: 'u1', changes: { maxPositionSize: 5, takeProfitRatio: 2.5 }, settings: { ...DEFAULT_BOT_SETTINGS }, resetAt: NOW } }]);
      const after = profileAfter([...given, ...riskDecider.decide({ type: 'ResetBotSettings', data: { userId: 'u1' }, metadata: meta }, given.reduce(riskDecider.evolve, riskDecider.initialState()))]);
      expect(after).to.include({ stopLossType: 'trailing', maxDrawdown: 25, maxPositionSize: 5 });
      spec.given([]).when({ type: 'ResetBotSettings', data: { userId: 'u1' }, metadata: meta }).then([]);
    });
  });

  describe('risk parameters: the same profile', function () {
    it('a full set records the set, the set before it and the fields it changed', function () {
      const parameters: RiskParameters = { ...DEFAULT_RISK_PARAMETERS, maxConcurrentTrades: 3, stopLossType: 'trailing', kellyCriterionEnabled: true };
      spec.given([]).when(changeParameters(parameters)).then([
        {
          type: 'RiskParametersChanged',
          data: { userId: 'u1', parameters, previous: { ...DEFAULT_RISK_PARAMETERS }, changes: { maxConcurrentTrades: 3, stopLossType: 'trailing', kellyCriterionEnabled: true }, changedAt: NOW },
        },
      ]);
    });

    it('issue 17: 7% set on Risk Management is the bot settings\' 7% (one field), and a bot settings change shows in the parameters', function () {
      const onRisk = profileAfter(run(changeParameters({ ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 7 })));
      expect(botSettingsOf(onRisk).maxPositionSize).to.equal(7);
      const onBot = profileAfter(run(changeParameters({ ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 7 }), changeSettings({ dailyLossLimit: 900, stopLossPercent: 3 })));
      expect(parametersOf(onBot)).to.include({ maxPositionSize: 7, maxDailyLoss: 900, stopLossValue: 3 });
    });

    it('the same set appends nothing', function () {
      spec.given([]).when(changeParameters({ ...DEFAULT_RISK_PARAMETERS })).then([]);
    });

    it('accepts every bound itself', function () {
      for (const [field, bounds] of Object.entries(riskParameterBounds)) {
        for (const value of [bounds.min, bounds.max]) {
          expect(riskDecider.decide(changeParameters({ ...DEFAULT_RISK_PARAMETERS, [field]: value }), riskDecider.initialState()).length, `${field}=${value}`).to.be.at.most(1);
        }
      }
    });

    for (const [field, value] of [
      ['maxPositionSize', 0.09],
      ['maxPositionSize', 51],
      ['maxConcurrentTrades', 0],
      ['maxConcurrentTrades', 21],
      ['maxConcurrentTrades', 2.5],
      ['maxDailyLoss', 40],
      ['maxDailyLoss', 10050],
      ['maxDrawdown', 4],
      ['maxDrawdown', 51],
      ['stopLossValue', 0.4],
      ['stopLossValue', 21],
      ['takeProfitRatio', 0.9],
      ['takeProfitRatio', 11],
      ['riskRewardRatio', 0.4],
      ['riskRewardRatio', 5.5],
      ['correlationLimit', 0],
      ['correlationLimit', 1.1],
      ['volatilityThreshold', 5],
      ['volatilityThreshold', 105],
      ['volatilityThreshold', Number.POSITIVE_INFINITY],
      ['stopLossType', 'random'],
      ['kellyCriterionEnabled', 1],
      ['dynamicPositionSizing', 'no'],
    ] as const) {
      it(`refuses ${field} = ${String(value)} naming the field`, function () {
        spec.given([]).when(changeParameters({ ...DEFAULT_RISK_PARAMETERS, [field]: value })).thenThrows(ValidationError, new RegExp(`^${field} `), { field });
      });
    }
  });

  describe('stored version 1 events fold into the one profile, field by field (upcastRiskEvent)', function () {
    const v1 = (type: string, data: Record<string, unknown>) => upcastRiskEvent({ type, data: { userId: 'u1', ...data }, schemaVersion: 1 });
    const v1Settings = (changes: Partial<BotSettings>, settings: BotSettings) => v1('BotSettingsChanged', { changes, settings, changedAt: NOW });
    const v1Parameters = (parameters: RiskParameters, previous: RiskParameters) => v1('RiskParametersChanged', { parameters, previous, changedAt: NOW });
    const V1_DEFAULT_PARAMETERS: RiskParameters = { ...DEFAULT_RISK_PARAMETERS, takeProfitRatio: 2 };
    const V1_DEFAULT_SETTINGS: BotSettings = { maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true };

    it('a v1 bot settings change sets the quantities the bot traded by: its stop, and its target as a ratio of the stop', function () {
      const event = v1Settings({ stopLossPercent: 3, dailyLossLimit: 900 }, { ...V1_DEFAULT_SETTINGS, stopLossPercent: 3, dailyLossLimit: 900 });
      expect(event.data).to.deep.include({ changes: { maxDailyLoss: 900, stopLossValue: 3, takeProfitRatio: 5 / 3 } });
      expect(botSettingsOf(profileAfter([event]))).to.deep.include({ stopLossPercent: 3, takeProfitPercent: 5, dailyLossLimit: 900 });
    });

    it('a v1 target nearer than the stop (or beyond ten stops) folds to the ratio\'s nearest bound', function () {
      expect(v1Settings({ takeProfitPercent: 1 }, { ...V1_DEFAULT_SETTINGS, takeProfitPercent: 1 }).data).to.deep.include({ changes: { stopLossValue: 2, takeProfitRatio: 1 } });
      expect(v1Settings({ stopLossPercent: 0.5, takeProfitPercent: 100 }, { ...V1_DEFAULT_SETTINGS, stopLossPercent: 0.5, takeProfitPercent: 100 }).data).to.deep.include({ changes: { stopLossValue: 0.5, takeProfitRatio: 10 } });
    });

    it('a v1 parameter set changes only the fields that differ from its previous set (issue 17: 7% on Risk Management is the bot\'s 7%)', function () {
      const botFirst = v1Settings({ stopLossPercent: 3 }, { ...V1_DEFAULT_SETTINGS, stopLossPercent: 3 });
      const riskThen = v1Parameters({ ...V1_DEFAULT_PARAMETERS, maxPositionSize: 7 }, V1_DEFAULT_PARAMETERS);
      expect(riskThen.data).to.deep.include({ changes: { maxPositionSize: 7 } });
      const profile = profileAfter([botFirst, riskThen]);
      expect(profile).to.include({ maxPositionSize: 7, stopLossValue: 3 }); // the screen's unchanged stop 2 did not undo the bot's 3
      expect(botSettingsOf(profile)).to.include({ maxPositionSize: 7, stopLossPercent: 3, takeProfitPercent: 5 });
    });

    it('a v1 reset sets the bot settings\' defaults of its time; a version 2 event (issue 16\'s, same shape as 1) folds the same; alerts and version 3 events pass unchanged', function () {
      const reset = v1('BotSettingsReset', { settings: V1_DEFAULT_SETTINGS, resetAt: NOW });
      expect(reset.data).to.deep.include({ changes: { maxPositionSize: 5, maxDailyLoss: 500, enableNotifications: true, autoRetrain: true, stopLossValue: 2, takeProfitRatio: 2.5 } });
      const alert = raised('a1', 'DRAWDOWN');
      expect(upcastRiskEvent({ ...alert, schemaVersion: 1 })).to.deep.equal(alert);
      const v2 = upcastRiskEvent({ type: 'BotSettingsChanged', data: { userId: 'u1', changes: { stopLossPercent: 3 }, settings: { ...V1_DEFAULT_SETTINGS, stopLossPercent: 3 }, changedAt: NOW }, schemaVersion: 2 });
      expect(v2.data).to.deep.include({ changes: { stopLossValue: 3, takeProfitRatio: 5 / 3 } });
      const current = run(changeSettings({ stopLossPercent: 4 }))[0]!;
      expect(current.data).to.deep.include({ changes: { stopLossValue: 4 } });
      expect(upcastRiskEvent({ ...current, schemaVersion: 3 })).to.deep.equal(current);
    });
  });

  describe('bot refusals', function () {
    const refusal = (decision: unknown) => ({
      type: 'RecordBotRefusal' as const,
      data: { userId: 'u1', signalId: 's1', signalEventId: 'e1', symbol: 'ETH', signalType: 'BUY' as const, candleTime: NOW, decision: decision as never },
      metadata: meta,
    });

    it('records the rule that refused a signal with its figures, and leaves the profile alone', function () {
      const decision = { rule: 'CORRELATION_LIMIT', text: 'refused: correlation 0.83 with BTC above 0.70', figures: { correlation: 0.83, correlationLimit: 0.7 } };
      const events = riskDecider.decide(refusal(decision), riskDecider.initialState());
      expect(events).to.deep.equal([{ type: 'BotSignalRefused', data: { userId: 'u1', signalId: 's1', signalEventId: 'e1', symbol: 'ETH', signalType: 'BUY', candleTime: NOW, decision, refusedAt: NOW } }]);
      expect(events.reduce(riskDecider.evolve, riskDecider.initialState())).to.deep.equal(riskDecider.initialState());
    });

    it('refuses a record without a known rule or with figures that are not numbers', function () {
      spec.given([]).when(refusal({ rule: 'MOOD', text: 'x', figures: {} })).thenThrows(ValidationError, /^decision is not a bot decision: Invalid option/, { field: 'decision' });
      spec.given([]).when(refusal({ rule: 'REWARD_RISK', text: 'x', figures: { rr: 'low' } })).thenThrows(ValidationError, /^decision /, { field: 'decision' });
      // Every problem is named, not only the first.
      spec.given([]).when(refusal({ rule: 'REWARD_RISK', text: 5, figures: { rr: 'low' } })).thenThrows(ValidationError, /^decision is not a bot decision: Invalid input: expected string, received number; Invalid input: expected number, received string$/, { field: 'decision' });
    });

    it('refuses a record without its signal, event, coin or candle, naming each', function () {
      const good = { rule: 'MAX_DRAWDOWN', text: 'refused', figures: {} };
      for (const field of ['signalId', 'signalEventId', 'symbol', 'candleTime'] as const) {
        for (const value of ['', '   ', 7]) {
          const command = refusal(good);
          spec.given([]).when({ ...command, data: { ...command.data, [field]: value } }).thenThrows(ValidationError, `${field} is required`, { field });
        }
      }
      const command = refusal(good);
      spec.given([]).when({ ...command, data: { ...command.data, signalType: 'HOLD' as 'BUY' } }).thenThrows(ValidationError, /^signalType must be one of /, { field: 'signalType' });
    });
  });

  describe('alerts', function () {
    it('raises an alert with its severity, value and threshold', function () {
      spec.given([]).when(raise('a1', 'DAILY_LOSS_80@2026-03-04')).then([raised('a1', 'DAILY_LOSS_80@2026-03-04')]);
    });

    it('once per condition: the same alert or the same open condition again appends nothing, acknowledged or not', function () {
      spec.given([raised('a1', 'DRAWDOWN')]).when(raise('a1', 'DRAWDOWN')).then([]);
      spec.given([raised('a1', 'DRAWDOWN')]).when(raise('a2', 'DRAWDOWN', { value: 18 })).then([]);
      spec.given([raised('a1', 'DRAWDOWN'), acknowledged('a1')]).when(raise('a2', 'DRAWDOWN')).then([]);
    });

    it('another condition raises its own alert', function () {
      spec.given([raised('a1', 'DAILY_LOSS_50@2026-03-04')]).when(raise('a2', 'DAILY_LOSS_80@2026-03-04')).then([raised('a2', 'DAILY_LOSS_80@2026-03-04')]);
    });

    it('a cleared condition may fire again', function () {
      const cleared: RiskEvent = { type: 'AcknowledgedRiskAlertsCleared', data: { userId: 'u1', alertIds: ['a1'], clearedAt: NOW } };
      spec.given([raised('a1', 'DRAWDOWN'), acknowledged('a1'), cleared]).when(raise('a2', 'DRAWDOWN')).then([raised('a2', 'DRAWDOWN')]);
    });

    it('refuses an alert with an unknown severity or kind, no message, or a value that is not a number', function () {
      spec.given([]).when(raise('a1', 'X', { severity: 'urgent' as 'high' })).thenThrows(ValidationError, /^severity must be one of low, medium, high, critical/);
      spec.given([]).when(raise('a1', 'X', { kind: 'MOOD' as 'DRAWDOWN' })).thenThrows(ValidationError, /^kind /);
      spec.given([]).when(raise('a1', 'X', { message: '' })).thenThrows(ValidationError, 'message is required');
      spec.given([]).when(raise('a1', 'X', { value: Number.NaN })).thenThrows(ValidationError, /^value /);
      spec.given([]).when(raise('a1', '')).thenThrows(ValidationError, 'conditionKey is required');
      spec.given([]).when(raise('', 'X')).thenThrows(ValidationError, 'alertId is required', { field: 'alertId' });
      spec.given([]).when(raise('a1', 'X', { message: '   ' })).thenThrows(ValidationError, 'message is required', { field: 'message' });
      spec.given([]).when(raise('a1', 'X', { message: 5 as unknown as string })).thenThrows(ValidationError, 'message is required', { field: 'message' });
      spec.given([]).when(raise('a1', 'X', { severity: 'urgent' as 'high' })).thenThrows(ValidationError, /^severity /, { field: 'severity' });
      spec.given([]).when(raise('a1', 'X', { value: '16' as unknown as number })).thenThrows(ValidationError, 'value must be a finite number, got "16"', { field: 'value' });
      spec.given([]).when(raise('a1', 'X', { threshold: Number.POSITIVE_INFINITY })).thenThrows(ValidationError, 'threshold must be a finite number, got null', { field: 'threshold' });
    });

    it('acknowledges an alert once; an unknown alert is 404', function () {
      const ack = { type: 'AcknowledgeRiskAlert' as const, data: { userId: 'u1', alertId: 'a1' }, metadata: meta };
      spec.given([raised('a1', 'DRAWDOWN')]).when(ack).then([acknowledged('a1')]);
      spec.given([raised('a1', 'DRAWDOWN'), acknowledged('a1')]).when(ack).then([]);
      spec.given([]).when(ack).thenThrows(NotFoundError, 'Risk alert a1 not found');
    });

    it('clears the acknowledged alerts in bulk and keeps the others', function () {
      const clear = { type: 'ClearAcknowledgedRiskAlerts' as const, data: { userId: 'u1' }, metadata: meta };
      const given = [raised('a1', 'A'), raised('a2', 'B'), raised('a3', 'C'), acknowledged('a1'), acknowledged('a3')];
      spec.given(given).when(clear).then([{ type: 'AcknowledgedRiskAlertsCleared', data: { userId: 'u1', alertIds: ['a1', 'a3'], clearedAt: NOW } }]);
      spec.given([raised('a2', 'B')]).when(clear).then([]);
      const after = [...given, { type: 'AcknowledgedRiskAlertsCleared', data: { userId: 'u1', alertIds: ['a1', 'a3'], clearedAt: NOW } } as RiskEvent];
      expect(after.reduce(riskDecider.evolve, riskDecider.initialState()).alerts.map((a) => a.alertId)).to.deep.equal(['a2']);
    });
  });

  describe('alerts resolved by a portfolio reset (issue 16, item 10)', function () {
    const of = (alertId: string, conditionKey: string, kind: RiskAlertKind): RiskEvent => {
      const event = raised(alertId, conditionKey);
      return { ...event, data: { ...event.data, kind } } as RiskEvent;
    };
    const resolve = { type: 'ResolveRiskAlerts' as const, data: { userId: 'u1', reason: 'PORTFOLIO_RESET' as const }, metadata: meta };
    const resolved = (alertIds: string[]): RiskEvent => ({ type: 'RiskAlertsResolved', data: { userId: 'u1', alertIds, reason: 'PORTFOLIO_RESET', resolvedAt: NOW } });
    const standing = [
      of('a1', 'POSITION_SIZE:t1', 'POSITION_SIZE'),
      of('a2', 'DAILY_LOSS_80@2026-03-04', 'DAILY_LOSS'),
      of('a3', 'DRAWDOWN', 'DRAWDOWN'),
      acknowledged('a3'),
      of('a4', 'VOLATILITY:ETH@2026-03-04', 'VOLATILITY'),
      of('a5', 'CONCURRENT_TRADES', 'CONCURRENT_TRADES'),
    ];

    it("resolves every standing alert about the positions, acknowledged or not, and keeps the day's loss alerts (a reset keeps the day's realised loss)", function () {
      spec.given(standing).when(resolve).then([resolved(['a1', 'a3', 'a4', 'a5'])]);
      const state = [...standing, resolved(['a1', 'a3', 'a4', 'a5'])].reduce(riskDecider.evolve, riskDecider.initialState());
      expect(state.alerts.map((a) => [a.alertId, a.acknowledged, a.resolvedAt, a.resolution])).to.deep.equal([
        ['a1', false, NOW, 'PORTFOLIO_RESET'],
        ['a2', false, null, null],
        ['a3', true, NOW, 'PORTFOLIO_RESET'],
        ['a4', false, NOW, 'PORTFOLIO_RESET'],
        ['a5', false, NOW, 'PORTFOLIO_RESET'],
      ]);
    });

    it('appends nothing when nothing stands to resolve, or when it is resolved already', function () {
      spec.given([]).when(resolve).then([]);
      spec.given([of('a2', 'DAILY_LOSS_50@2026-03-04', 'DAILY_LOSS')]).when(resolve).then([]);
      spec.given([...standing, resolved(['a1', 'a3', 'a4', 'a5'])]).when(resolve).then([]);
    });

    it('refuses a reason it does not know', function () {
      spec.given(standing).when({ ...resolve, data: { userId: 'u1', reason: 'BORED' as 'PORTFOLIO_RESET' } }).thenThrows(ValidationError, /^reason must be one of PORTFOLIO_RESET/);
    });

    it('a resolved condition may fire again (a new position on the same coin, a new drawdown)', function () {
      spec.given([...standing, resolved(['a1', 'a3', 'a4', 'a5'])]).when(raise('a6', 'DRAWDOWN')).then([raised('a6', 'DRAWDOWN')]);
      spec.given([...standing, resolved(['a1', 'a3', 'a4', 'a5'])]).when(raise('a3', 'DRAWDOWN')).then([]);
    });

    it('a resolved alert needs no acknowledgement, and is cleared with the acknowledged ones', function () {
      const given = [...standing, resolved(['a1', 'a3', 'a4', 'a5'])];
      spec.given(given).when({ type: 'AcknowledgeRiskAlert', data: { userId: 'u1', alertId: 'a1' }, metadata: meta }).then([]);
      spec.given(given).when({ type: 'ClearAcknowledgedRiskAlerts', data: { userId: 'u1' }, metadata: meta }).then([{ type: 'AcknowledgedRiskAlertsCleared', data: { userId: 'u1', alertIds: ['a1', 'a3', 'a4', 'a5'], clearedAt: NOW } }]);
    });
  });
});
