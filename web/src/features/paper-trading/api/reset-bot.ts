/**
 * POST /api/bot/reset (premium): the bot stops, its settings go back to the defaults and the paper
 * portfolio to its starting cash. Success makes the portfolio, trades, signals and ml-status stale
 * (spec section 4); those keys belong to several features, so the app passes them in.
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { postBotCommand } from './bot-command';

export const RESET_BOT_PATH = '/api/bot/reset';

export function resetBot() {
  return postBotCommand(RESET_BOT_PATH);
}

export function useResetBot({ invalidates }: { invalidates: readonly QueryKey[] }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetBot,
    onSuccess: async () => {
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
