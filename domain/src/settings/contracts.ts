/**
 * HTTP contracts of the Settings screen's own endpoints (issue 21). The Bot Settings tab is the risk
 * profile's (POST /api/settings/bot, domain/src/trading/contracts.ts).
 *
 * - POST /api/settings/api: the spec's API settings `{binanceKey, binanceSecret, coinbaseKey,
 *   coinbaseSecret, enablePaperTrading, enableRealTrading}`, plus `coinbasePassphrase` (Coinbase
 *   Exchange's keys have one; the spec's payload has none, so it is optional here, and Coinbase keys
 *   saved without it fail their connection test saying so) and `confirmRealTrading` (real trading
 *   switched on needs it). Keys are
 *   stored as the exchange connections of POST /api/exchanges/{id}/config; an exchange's key and
 *   secret come together or not at all; empty strings count as absent (the form sends every field).
 * - POST /api/settings/notifications: some of the notification switches.
 * - GET /api/settings: the notification switches and the trading mode.
 */
import { z } from 'zod';
import { apiKeySchema, apiSecretSchema, passphraseSchema } from '../exchanges/contracts';
import { DEFAULT_NOTIFICATIONS, DEFAULT_TRADING_MODE, notificationKinds, type NotificationPreferences, type TradingMode } from './account-settings';
import { addIssueAt } from '../shared/issues';

export { DEFAULT_NOTIFICATIONS, DEFAULT_TRADING_MODE, notificationKinds, type NotificationPreferences, type TradingMode };

const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);
const optional = <S extends z.ZodType>(schema: S) => z.preprocess(emptyAsAbsent, schema.optional());
const flag = () => z.boolean({ error: 'must be true or false' });

export const apiSettingsRequestSchema = z
  .strictObject({
    binanceKey: optional(apiKeySchema),
    binanceSecret: optional(apiSecretSchema),
    coinbaseKey: optional(apiKeySchema),
    coinbaseSecret: optional(apiSecretSchema),
    coinbasePassphrase: optional(passphraseSchema),
    enablePaperTrading: flag().optional(),
    enableRealTrading: flag().optional(),
    confirmRealTrading: flag().optional(),
  })
  .superRefine((body, ctx) => {
    for (const exchange of ['binance', 'coinbase'] as const) {
      const key = body[`${exchange}Key`];
      const secret = body[`${exchange}Secret`];
      if ((key === undefined) !== (secret === undefined)) {
        const missing = key === undefined ? `${exchange}Key` : `${exchange}Secret`;
        addIssueAt(ctx, [missing], `${missing} is required with ${key === undefined ? `${exchange}Secret` : `${exchange}Key`}`);
      }
    }
    if (body.coinbasePassphrase !== undefined && body.coinbaseKey === undefined) {
      addIssueAt(ctx, ['coinbasePassphrase'], 'coinbasePassphrase is only taken with coinbaseKey and coinbaseSecret');
    }
    if (Object.values(body).every((v) => v === undefined)) addIssueAt(ctx, [], 'at least one setting is required');
  });
export type ApiSettingsRequest = z.input<typeof apiSettingsRequestSchema>;

const tradingModeSchema = z.object({ paperTrading: z.boolean(), realTrading: z.boolean() });
const notificationsSchema = z.object(Object.fromEntries(notificationKinds.map((k) => [k, z.boolean()])) as Record<(typeof notificationKinds)[number], z.ZodBoolean>);

export const apiSettingsResponseSchema = z.object({
  userId: z.string(),
  /** The exchanges whose keys this request stored (last four characters of each key). */
  exchanges: z.array(z.object({ exchangeId: z.enum(['binance', 'coinbase']), keyLast4: z.string(), testnet: z.boolean() })),
  tradingMode: tradingModeSchema,
  position: z.string().nullable(),
});
export type ApiSettingsResponse = z.infer<typeof apiSettingsResponseSchema>;

export const notificationSettingsRequestSchema = z
  .strictObject(Object.fromEntries(notificationKinds.map((k) => [k, flag().optional()])) as Record<(typeof notificationKinds)[number], z.ZodOptional<z.ZodBoolean>>)
  .refine((body) => Object.values(body).some((v) => v !== undefined), { message: 'at least one setting is required' });

export const notificationSettingsResponseSchema = z.object({ userId: z.string(), notifications: notificationsSchema, position: z.string().nullable() });
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponseSchema>;

export const accountSettingsResponseSchema = z.object({ notifications: notificationsSchema, tradingMode: tradingModeSchema });
export type AccountSettingsResponse = z.infer<typeof accountSettingsResponseSchema>;

/** What each notification switch decides, as the Notifications tab says it. */
export const NOTIFICATION_LABELS: Readonly<Record<(typeof notificationKinds)[number], { label: string; description: string }>> = {
  botTrades: { label: 'Bot trades', description: 'A toast when your bot places a paper trade' },
  botStatus: { label: 'Bot status', description: 'A toast when your bot pauses new entries (the drawdown rule) and when it resumes' },
  riskAlerts: { label: 'Risk alerts', description: 'A toast when the risk monitor raises an alert' },
  mirrorFills: { label: 'Testnet mirror fills', description: 'A toast when a mirrored order fills on the testnet (or fails)' },
};
