/** POST /api/bot/start (premium; the server checks too). The bot's state arrives over the feed. */
import { useMutation } from '@tanstack/react-query';
import { postBotCommand } from './bot-command';

export const START_BOT_PATH = '/api/bot/start';

export function startBot() {
  return postBotCommand(START_BOT_PATH);
}

export function useStartBot() {
  return useMutation({ mutationFn: startBot });
}
