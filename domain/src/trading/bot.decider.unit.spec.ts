/** The bot decider: STOPPED -> ACTIVE -> STOPPED, reset, premium to start and reset, repeats are no-ops. */
import { specFor } from '../shared/decider-specification';
import { ForbiddenError } from '../shared/errors';
import type { BotEvent } from './bot';
import { botDecider } from './bot.decider';

const spec = specFor(botDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const started: BotEvent = { type: 'BotStarted', data: { userId: 'u1', startedAt: '2026-03-04T05:00:00.000Z' } };
const stopped: BotEvent = { type: 'BotStopped', data: { userId: 'u1', stoppedAt: '2026-03-04T05:01:00.000Z' } };
const start = (premium: boolean) => ({ type: 'StartBot' as const, data: { userId: 'u1', premium }, metadata: { now: NOW } });
const stop = { type: 'StopBot' as const, data: { userId: 'u1' }, metadata: { now: NOW } };
const reset = (premium: boolean) => ({ type: 'ResetBot' as const, data: { userId: 'u1', premium }, metadata: { now: NOW } });

describe('bot decider', function () {
  it('a premium user starts a stopped bot', function () {
    spec.given([]).when(start(true)).then([{ type: 'BotStarted', data: { userId: 'u1', startedAt: NOW } }]);
    spec.given([started, stopped]).when(start(true)).then([{ type: 'BotStarted', data: { userId: 'u1', startedAt: NOW } }]);
  });

  it('a user without premium may not start it (403 Premium subscription required)', function () {
    spec.given([]).when(start(false)).thenThrows(ForbiddenError, /Premium subscription required/);
  });

  it('an active bot stops', function () {
    spec.given([started]).when(stop).then([{ type: 'BotStopped', data: { userId: 'u1', stoppedAt: NOW } }]);
  });

  it('starting an active bot or stopping a stopped one appends nothing (the state asked for is the state it is in)', function () {
    spec.given([started]).when(start(true)).then([]);
    spec.given([]).when(stop).then([]);
    spec.given([started, stopped]).when(stop).then([]);
  });

  it('stopping needs no premium: a lapsed subscriber can still stop a running bot', function () {
    spec.given([started]).when(stop).then([{ type: 'BotStopped', data: { userId: 'u1', stoppedAt: NOW } }]);
  });

  it('reset stops an active bot and is recorded when stopped too', function () {
    spec.given([started]).when(reset(true)).then([{ type: 'BotReset', data: { userId: 'u1', wasActive: true, resetAt: NOW } }]);
    spec.given([]).when(reset(true)).then([{ type: 'BotReset', data: { userId: 'u1', wasActive: false, resetAt: NOW } }]);
  });

  it('reset needs premium', function () {
    spec.given([started]).when(reset(false)).thenThrows(ForbiddenError, /Premium subscription required/);
  });

  it('after a reset the bot is stopped and may start again', function () {
    const wasReset: BotEvent = { type: 'BotReset', data: { userId: 'u1', wasActive: true, resetAt: NOW } };
    spec.given([started, wasReset]).when(stop).then([]);
    spec.given([started, wasReset]).when(start(true)).then([{ type: 'BotStarted', data: { userId: 'u1', startedAt: NOW } }]);
  });
});
