/**
 * The risk decider: bot settings (defaults 5/2/5/500, partial changes, reset), the full risk
 * parameter set with the bounds of premium-and-account.md section 5 and the defaults of section 9,
 * and alerts (once per condition, acknowledged, acknowledged ones cleared in bulk).
 */
import { expect } from 'chai';
import { specFor } from '../shared/decider-specification';
import { NotFoundError, ValidationError } from '../shared/errors';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS, riskParameterBounds, type RiskParameters } from './contracts';
import type { RiskAlertKind, RiskEvent } from './risk';
import { riskDecider, type RaiseRiskAlert } from './risk.decider';

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

describe('risk decider', function () {
  it('starts with the spec defaults: bot 5%, 2%, 5%, $500; parameters 5, 5, 500, 15, fixed 2, 2, 2, 0.7, 30', function () {
    expect(riskDecider.initialState().settings).to.deep.equal({ maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true });
    expect(riskDecider.initialState().parameters).to.deep.equal({
      maxPositionSize: 5,
      maxConcurrentTrades: 5,
      maxDailyLoss: 500,
      maxDrawdown: 15,
      stopLossType: 'fixed',
      stopLossValue: 2,
      takeProfitRatio: 2,
      riskRewardRatio: 2,
      kellyCriterionEnabled: false,
      dynamicPositionSizing: false,
      correlationLimit: 0.7,
      volatilityThreshold: 30,
    });
  });

  describe('bot settings', function () {
    it('a change records what changed and the settings after it', function () {
      spec
        .given([])
        .when({ type: 'ChangeBotSettings', data: { userId: 'u1', changes: { stopLossPercent: 3, dailyLossLimit: 500 } }, metadata: meta })
        .then([{ type: 'BotSettingsChanged', data: { userId: 'u1', changes: { stopLossPercent: 3 }, settings: { ...DEFAULT_BOT_SETTINGS, stopLossPercent: 3 }, changedAt: NOW } }]);
    });

    it('a change to the same values appends nothing', function () {
      spec.given([]).when({ type: 'ChangeBotSettings', data: { userId: 'u1', changes: { maxPositionSize: 5, autoRetrain: true } }, metadata: meta }).then([]);
    });

    for (const [field, value] of [
      ['maxPositionSize', 0],
      ['maxPositionSize', 50.1],
      ['stopLossPercent', 0.4],
      ['takeProfitPercent', 101],
      ['dailyLossLimit', 49],
      ['dailyLossLimit', Number.NaN],
      ['enableNotifications', 'yes'],
      ['leverage', 10],
    ] as const) {
      it(`refuses ${field} = ${String(value)} naming the field`, function () {
        spec.given([]).when({ type: 'ChangeBotSettings', data: { userId: 'u1', changes: { [field]: value } }, metadata: meta }).thenThrows(ValidationError, new RegExp(`${field}`));
      });
    }

    it('reset returns the defaults, and appends nothing when they are the defaults already', function () {
      const changed: RiskEvent = { type: 'BotSettingsChanged', data: { userId: 'u1', changes: { takeProfitPercent: 8 }, settings: { ...DEFAULT_BOT_SETTINGS, takeProfitPercent: 8 }, changedAt: NOW } };
      spec.given([changed]).when({ type: 'ResetBotSettings', data: { userId: 'u1' }, metadata: meta }).then([{ type: 'BotSettingsReset', data: { userId: 'u1', settings: { ...DEFAULT_BOT_SETTINGS }, resetAt: NOW } }]);
      spec.given([]).when({ type: 'ResetBotSettings', data: { userId: 'u1' }, metadata: meta }).then([]);
    });
  });

  describe('risk parameters', function () {
    it('a full set replaces the previous one, recording both', function () {
      const parameters: RiskParameters = { ...DEFAULT_RISK_PARAMETERS, maxConcurrentTrades: 3, stopLossType: 'trailing', kellyCriterionEnabled: true };
      spec.given([]).when(changeParameters(parameters)).then([{ type: 'RiskParametersChanged', data: { userId: 'u1', parameters, previous: { ...DEFAULT_RISK_PARAMETERS }, changedAt: NOW } }]);
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
    ] as const) {
      it(`refuses ${field} = ${String(value)} naming the field`, function () {
        spec.given([]).when(changeParameters({ ...DEFAULT_RISK_PARAMETERS, [field]: value })).thenThrows(ValidationError, new RegExp(`^${field} `));
      });
    }
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
