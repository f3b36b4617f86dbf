/**
 * StartBot, StopBot, ResetBot on `bot-{userId}`.
 *
 * Premium is the caller's entitlement at the time of the command (tier PREMIUM and status ACTIVE,
 * read by the route's guard), carried in the command so the decider stays pure.
 *
 * - Starting an ACTIVE bot and stopping a STOPPED one append nothing and do not fail: the client
 *   learns the bot's state from the feed (BOT_STATUS), not from the answer, so a double click, a
 *   second tab or a retried request would otherwise show "Start Failed" for a bot that is in fact
 *   running. The state asked for is the state it is in; there is nothing to refuse.
 * - Stopping does not need premium: a user whose premium lapsed must still be able to stop a bot
 *   that is trading their portfolio. (The trading bot worker also trades only for premium users.)
 * - ResetBot is recorded even when the bot is already stopped: it is the user's explicit act, and
 *   marks when the bot's settings (and, by the route, the portfolio) went back to their defaults.
 */
import { assertNever, type Decider } from '../shared/decider';
import { ForbiddenError } from '../shared/errors';
import { evolveBot, initialBotState, type BotEvent, type BotState } from './bot';

export const PREMIUM_REQUIRED_FOR_BOT = 'Premium subscription required to use the trading bot';

export type StartBot = { type: 'StartBot'; data: { userId: string; premium: boolean }; metadata: { now: string } };
export type StopBot = { type: 'StopBot'; data: { userId: string }; metadata: { now: string } };
export type ResetBot = { type: 'ResetBot'; data: { userId: string; premium: boolean }; metadata: { now: string } };

export type BotCommand = StartBot | StopBot | ResetBot;

export function startBot(command: StartBot, state: BotState): BotEvent[] {
  if (command.data.premium !== true) throw new ForbiddenError(PREMIUM_REQUIRED_FOR_BOT);
  if (state.status === 'ACTIVE') return [];
  return [{ type: 'BotStarted', data: { userId: command.data.userId, startedAt: command.metadata.now } }];
}

export function stopBot(command: StopBot, state: BotState): BotEvent[] {
  if (state.status === 'STOPPED') return [];
  return [{ type: 'BotStopped', data: { userId: command.data.userId, stoppedAt: command.metadata.now } }];
}

export function resetBot(command: ResetBot, state: BotState): BotEvent[] {
  if (command.data.premium !== true) throw new ForbiddenError(PREMIUM_REQUIRED_FOR_BOT);
  return [{ type: 'BotReset', data: { userId: command.data.userId, wasActive: state.status === 'ACTIVE', resetAt: command.metadata.now } }];
}

export const botDecider: Decider<BotState, BotCommand, BotEvent> = {
  name: 'bot',
  schemaVersion: 1,
  initialState: initialBotState,
  evolve: evolveBot,
  decide(command, state) {
    switch (command.type) {
      case 'StartBot':
        return startBot(command, state);
      case 'StopBot':
        return stopBot(command, state);
      case 'ResetBot':
        return resetBot(command, state);
      default:
        return assertNever(command);
    }
  },
};
