/**
 * The audit read contracts (GET /api/audit/..., `npm run audit`): the query parameters each route
 * accepts and the shapes it answers. Events are always shown through `toAuditEvent`, which redacts.
 */
import { z } from 'zod';
import { redactSecrets } from './redaction';
import { listFormatParam } from '../shared/list-format';

/** Stream names as this system makes them (`portfolio-{uuid}`, `signals-ETH`, `email-reservation-{hex}`). */
export const STREAM_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,199}$/;
export const streamNameSchema = z
  .string()
  .regex(STREAM_NAME, 'stream must be 1-200 letters, digits or _ . : @ - (starting with a letter or digit)');

export const USER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
export const userIdSchema = z.string().regex(USER_ID, 'user id must be 1-100 letters, digits, _ or -');

export const MAX_AUDIT_PAGE_SIZE = 200;
export const DEFAULT_AUDIT_PAGE_SIZE = 50;

const pageFields = {
  page: z.coerce.number({ error: 'page must be a whole number from 1' }).int('page must be a whole number from 1').min(1, 'page must be a whole number from 1').max(1_000_000, 'page must be at most 1000000').default(1),
  pageSize: z.coerce
    .number({ error: `pageSize must be a whole number from 1 to ${MAX_AUDIT_PAGE_SIZE}` })
    .int(`pageSize must be a whole number from 1 to ${MAX_AUDIT_PAGE_SIZE}`)
    .min(1, `pageSize must be a whole number from 1 to ${MAX_AUDIT_PAGE_SIZE}`)
    .max(MAX_AUDIT_PAGE_SIZE, `pageSize must be at most ${MAX_AUDIT_PAGE_SIZE}`)
    .default(DEFAULT_AUDIT_PAGE_SIZE),
};

export const streamQuerySchema = z.strictObject(pageFields);
export const timelineQuerySchema = z.strictObject({ ...pageFields, format: listFormatParam });

/** An ISO-8601 instant with a time zone (Z or an offset), e.g. 2026-01-31T12:00:00Z. */
export const asOfSchema = z.iso.datetime({ offset: true, error: 'asOf must be an ISO-8601 date-time with a time zone, e.g. 2026-01-31T12:00:00Z' });
export const asOfQuerySchema = z.strictObject({ asOf: asOfSchema });

export const auditEventSchema = z.object({
  streamId: z.string(),
  /** 0-based revision in its stream, as a decimal string (it is a 64-bit number). */
  revision: z.string(),
  /** Global position (opaque, orders like the global log). */
  position: z.string(),
  type: z.string(),
  /** When it was appended: metadata.at. */
  time: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const pagedFields = { page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), totalPages: z.number().int() };

export const streamResponseSchema = z.object({ stream: z.string(), events: z.array(auditEventSchema), ...pagedFields });
export type StreamResponse = z.infer<typeof streamResponseSchema>;

export const TIMELINE_CATEGORIES = ['trade', 'bot', 'risk', 'subscription'] as const;
export type TimelineCategory = (typeof TIMELINE_CATEGORIES)[number];
export const timelineEntrySchema = auditEventSchema.extend({ category: z.enum(TIMELINE_CATEGORIES) });
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const timelineResponseSchema = z.object({ userId: z.string(), entries: z.array(timelineEntrySchema), ...pagedFields });
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;

/** The price a position was valued at as of a past time, and where it came from. */
export const asOfPriceSchema = z.object({
  symbol: z.string(),
  coinId: z.string(),
  /** USD; null when the market could not say (the position is then valued at its average entry price). */
  price: z.number().nullable(),
  /** The open of the market's candle that contains asOf: the price at `candleTime`, before or at asOf. */
  candleTime: z.string().nullable(),
  intervalMinutes: z.number().nullable(),
  source: z.string(),
  note: z.string().optional(),
});
export type AsOfPrice = z.infer<typeof asOfPriceSchema>;

export const portfolioAsOfResponseSchema = z.object({
  userId: z.string(),
  asOf: z.string(),
  /** Whether any event of the stream is at or before asOf (else the portfolio had not been opened). */
  opened: z.boolean(),
  /** The stream's own state, folded by the portfolio's evolve (micro-dollars, 1e-8 coin units). */
  state: z.object({
    startingCashMicros: z.number(),
    cashMicros: z.number(),
    realisedPnlMicros: z.number(),
    positions: z.array(
      z.object({
        positionId: z.string(),
        coinId: z.string(),
        symbol: z.string(),
        units: z.number(),
        costBasisMicros: z.number(),
        entryNotionalMicros: z.number(),
        openTradeIds: z.array(z.string()),
        /** The FIFO lots (each open BUY's remainder), oldest first; absent from servers before lots. */
        lots: z.array(z.object({ tradeId: z.string(), units: z.number(), costMicros: z.number(), entryNotionalMicros: z.number(), price: z.number() })).optional(),
        /** How it exits (issue 17, stop-levels.ts): PROFILE (the bot's), MANUAL (its levels), NONE; absent from servers before plans. */
        exits: z
          .discriminatedUnion('kind', [
            z.object({ kind: z.literal('PROFILE'), atr: z.number().nullable(), sigma: z.number().nullable() }),
            z.object({ kind: z.literal('MANUAL'), stopLoss: z.number().nullable(), takeProfit: z.number().nullable(), stopLossPercent: z.number().nullable(), takeProfitPercent: z.number().nullable() }),
            z.object({ kind: z.literal('NONE') }),
          ])
          .optional(),
        openedAt: z.string(),
      }),
    ),
  }),
  /** The state valued at `prices` (portfolio-valuation.ts), in USD to the cent. */
  valuation: z.object({
    startingCash: z.number(),
    cash: z.number(),
    positionsValue: z.number(),
    totalValue: z.number(),
    realisedPnl: z.number(),
    unrealisedPnl: z.number(),
    totalPnl: z.number(),
    totalPnlPercent: z.number(),
  }),
  prices: z.array(asOfPriceSchema),
  /** The events the state was folded from, in stream order. */
  events: z.array(auditEventSchema),
  /** How many events of the stream come after asOf (not applied). */
  laterEvents: z.number().int(),
});
export type PortfolioAsOfResponse = z.infer<typeof portfolioAsOfResponseSchema>;

export const subscriptionAsOfResponseSchema = z.object({
  userId: z.string(),
  asOf: z.string(),
  /** The subscription decider's folded state: tier and status, and what else it keeps (end date, ...), redacted. */
  state: z.looseObject({ tier: z.string(), status: z.string() }),
  events: z.array(auditEventSchema),
  laterEvents: z.number().int(),
});
export type SubscriptionAsOfResponse = z.infer<typeof subscriptionAsOfResponseSchema>;

/** What the audit needs of a stored event (the platform's RecordedEvent has these and more). */
export interface StoredEventLike {
  streamId: string;
  revision: bigint;
  position: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** When an event was appended (metadata.at, from the appending process's clock). */
export function eventTime(event: Pick<StoredEventLike, 'metadata'>): string {
  const at = event.metadata.at;
  return typeof at === 'string' ? at : '';
}

/** The only way an event leaves through the audit: secrets redacted (redaction.ts). */
export function toAuditEvent(event: StoredEventLike): AuditEvent {
  return {
    streamId: event.streamId,
    revision: event.revision.toString(),
    position: event.position,
    type: event.type,
    time: eventTime(event),
    data: redactSecrets(event.data),
    metadata: redactSecrets(event.metadata),
  };
}

export const totalPages = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
