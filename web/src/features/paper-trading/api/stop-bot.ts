/** POST /api/bot/stop. The bot's state arrives over the feed. */
import { useMutation } from '@tanstack/react-query';
import { postBotCommand } from './bot-command';

export const STOP_BOT_PATH = '/api/bot/stop';

export function stopBot() {
  return postBotCommand(STOP_BOT_PATH);
}

export function useStopBot() {
  return useMutation({ mutationFn: stopBot });
}
