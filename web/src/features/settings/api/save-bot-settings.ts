/**
 * POST /api/settings/bot (signed in): the bot settings, which are the one risk profile's fields
 * (issue 17), so the bot and the Risk Management screen follow at once. The route passes `onSaved` to
 * refresh the risk reads (features do not import each other).
 */
import { useMutation } from '@tanstack/react-query';
import { botSettingsResponseSchema, type BotSettingsRequest, type BotSettingsResponse } from '@papertrade/domain/trading/contracts';
import { sendJson } from '../../../lib/api-client';

export function saveBotSettings(settings: BotSettingsRequest): Promise<BotSettingsResponse> {
  return sendJson('POST', '/api/settings/bot', settings, botSettingsResponseSchema);
}

export function useSaveBotSettings({ onSaved }: { onSaved?: () => void } = {}) {
  return useMutation({ mutationFn: (settings: BotSettingsRequest) => saveBotSettings(settings), onSuccess: () => onSaved?.() });
}
