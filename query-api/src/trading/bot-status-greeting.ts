/**
 * What a socket is told about its user's bot as soon as it authenticates (the relay's `greet`,
 * ../realtime/relay.ts): BOT_STATUS with the status the `trading-bots` read model holds. The client
 * learns the bot's state from the feed only (dashboard-and-sign-in.md section 4), and the projector
 * pushes BOT_STATUS only when the status changes, so without this a dashboard opened (or reloaded)
 * while the bot runs would read STOPPED and offer Start Trading Bot instead of Pause Bot, and the
 * user could not pause it from there. A user with no bot document has never started a bot: nothing
 * is sent, and the client's default (STOPPED) is right.
 */
import { TRADING_BOTS_PROJECTION, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { RelayFrame } from '../realtime/messages';

export function botStatusGreeting(readModels: ReadModels): (userId: string) => Promise<RelayFrame[]> {
  return async (userId) => {
    const bot = await (await readModels.collection<TradingBotView>(TRADING_BOTS_PROJECTION)).get(userId);
    return bot ? [{ type: 'BOT_STATUS', data: { status: bot.status } }] : [];
  };
}
