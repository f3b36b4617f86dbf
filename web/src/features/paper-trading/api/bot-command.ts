/**
 * What the three bot commands (POST /api/bot/start, /stop, /reset) answer: whose bot and the
 * position of the write. Whether the bot runs is NOT in it: that comes from the feed's BOT_STATUS
 * (spec section 4), so the answer is only checked, never used for the button's state.
 */
import { z } from 'zod';
import { sendJson } from '../../../lib/api-client';

export const botCommandResponseSchema = z.object({ userId: z.string(), position: z.string().nullable() });
export type BotCommandResponse = z.infer<typeof botCommandResponseSchema>;

export function postBotCommand(path: string): Promise<BotCommandResponse> {
  return sendJson('POST', path, undefined, botCommandResponseSchema);
}
