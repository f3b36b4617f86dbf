/**
 * What the three bot commands (POST /api/bot/start, /stop, /reset) answer: whose bot and the
 * position of the write. Whether the bot runs is NOT in it: that comes from the feed's BOT_STATUS
 * (spec section 4), so the answer is only checked, never used for the button's state.
 */
import { botCommandResponseSchema, type BotCommandResponse } from '@papertrade/domain/trading/contracts';
import { sendJson } from '../../../lib/api-client';

export function postBotCommand(path: string): Promise<BotCommandResponse> {
  return sendJson('POST', path, undefined, botCommandResponseSchema);
}
