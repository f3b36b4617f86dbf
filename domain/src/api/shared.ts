/**
 * Schemas several endpoints share, and those that were written inline in a route before the API was
 * documented: the route and the document now take them from here, so neither can change alone.
 */
import { z } from 'zod';

/** A route without query parameters: anything sent is a mistake worth a 400. */
export const noQuerySchema = z.strictObject({});

/** The commands without a payload take no body, or `{}`: anything else is a mistake worth a 400. */
export const noBodySchema = z.strictObject({}).optional();

/** Alert ids are chosen by the risk monitor (UUIDs); anything else names no alert (404). */
export const alertIdSchema = z.string().regex(/^[\w.:@-]{1,200}$/);

/** A user id in a command path (a UUID); anything else names no user (404). */
export const userIdParamSchema = z.uuid();

/** The global position of the last event a command appended (null when it appended nothing): send it as X-Min-Position. */
export const commandPositionSchema = z.string().nullable().meta({ description: 'Global position of the last event appended (null when nothing was); send it as X-Min-Position to read your own write' });

/** GET /api/health. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });
