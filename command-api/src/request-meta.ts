/** Correlation and idempotency metadata of an incoming command. */
import { createHmac, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import { ValidationError } from '@papertrade/domain/shared/errors';
import type { CommandMeta } from '@papertrade/platform/commands/command-handler';
import { clientAddress } from '@papertrade/platform/http/client-address';

const keySchema = z.string().regex(/^[\x21-\x7e]{1,200}$/);
const correlationSchema = z.string().regex(/^[\w.:-]{1,100}$/);

export function commandMeta(ctx: Context, actor: string, requestHashKey: string, body: unknown): CommandMeta {
  const rawKey = ctx.get('idempotency-key');
  const rawCorrelation = ctx.get('x-correlation-id');
  const correlationId = rawCorrelation && correlationSchema.safeParse(rawCorrelation).success ? rawCorrelation : randomUUID();
  if (!rawKey) return { actor, correlationId };
  if (!keySchema.safeParse(rawKey).success) {
    throw new ValidationError('Idempotency-Key: must be 1-200 visible ASCII characters');
  }
  const requestHash = createHmac('sha256', requestHashKey).update(JSON.stringify(body ?? null)).digest('hex');
  return { actor, correlationId, idempotency: { scope: `${actor}|${ctx.method}|${ctx.path}`, key: rawKey, requestHash } };
}

/** The client address; behind the gateway (TRUST_PROXY) the first X-Forwarded-For entry (platform/src/http/client-address.ts). */
export function clientIp(ctx: Context, trustProxy: boolean): string {
  return clientAddress(ctx.req, trustProxy);
}
