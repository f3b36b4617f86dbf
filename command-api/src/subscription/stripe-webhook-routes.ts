/**
 * POST /api/stripe/webhook: Stripe's notices, verified on the raw body (a JSON parser in front
 * would change the bytes the signature covers, so this route reads the body itself and no body
 * parser is mounted for it). Handled: checkout.session.completed (activates, like the success
 * call, when the session is paid: a session paid by an asynchronous method such as a bank debit
 * completes 'unpaid' and activates nothing yet), checkout.session.async_payment_succeeded (that
 * payment went through: activates by the same path, once), checkout.session.async_payment_failed
 * (it did not: recorded as a failed payment in the billing history, access unchanged), invoice.paid / invoice.payment_failed (billing history), customer.subscription.deleted
 * (ends access). Idempotent by Stripe event id: the command handler's idempotency, keyed by the
 * event id, gives the events deterministic ids and a redelivered event appends nothing; the domain's
 * own once-rules (a session activates once, an invoice is paid once) cover the success call racing
 * the webhook. Anything else is acknowledged and ignored, so Stripe stops retrying it.
 */
import { createHash, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import Stripe from 'stripe';
import { z } from 'zod';
import { subscriptionDecider, subscriptionStreamId, type SubscriptionCommand } from '@papertrade/domain/auth/subscription';
import { planById, planForTier } from '@papertrade/domain/plans/catalogue';
import { PayloadTooLargeError, ServiceUnavailableError, ValidationError } from '@papertrade/domain/shared/errors';
import { BODY_LIMIT_BYTES } from '@papertrade/platform/http/body';
import type { CommandMeta } from '@papertrade/platform/commands/command-handler';
import type { CommandApiDeps } from '../deps';
import { sessionInfoFromStripe } from './checkout-provider';
import { confirmPayment } from './confirm-payment';

export const WEBHOOK_PATH = '/api/stripe/webhook';
export const STRIPE_WEBHOOK_ACTOR = 'stripe-webhook';

/**
 * How far a signature's timestamp may be from our clock, either way (Stripe's default, 5 minutes).
 * stripe-node 23's constructEvent checks one way only: `now - t > tolerance` refuses an old
 * signature, but a timestamp in the future gives a negative age and passes however far ahead it is
 * (node_modules/stripe/cjs/Webhooks.js, validateComputedSignature). A captured signature dated ahead
 * could then be replayed for as long as that; the route checks the other side itself.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The signed timestamp of a Stripe-Signature header (`t=...,v1=...`), read as stripe-node reads it
 * (the last `t=` wins, parseInt), so the one we check is the one the HMAC covered; NaN when absent.
 */
export function signatureTimestamp(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp;
}

/** The request body as bytes, at most BODY_LIMIT_BYTES. */
export async function readRawBody(ctx: Context): Promise<Buffer> {
  if (Number(ctx.get('content-length') || 0) > BODY_LIMIT_BYTES) throw new PayloadTooLargeError('The request body is larger than the 100 kB limit');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new PayloadTooLargeError('The request body is larger than the 100 kB limit');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * What PostgreSQL's JSONB refuses inside a string: NUL and unpaired UTF-16 surrogates. A signed event
 * carrying one would fail at the append (a 500, retried by Stripe for days); it is refused up front.
 */
const UNSTORABLE = /[\u0000\p{Cs}]/u;
function storable(value: unknown): boolean {
  if (typeof value === 'string') return !UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.every(storable);
  if (value !== null && typeof value === 'object') return Object.entries(value).every(([k, v]) => storable(k) && storable(v));
  return true;
}

/** The event envelope: Stripe's event id (the idempotency key), its type and the object it is about. */
export const webhookEventSchema = z
  .object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    data: z.object({ object: z.unknown() }),
  })
  .refine(storable, 'contains text the event store cannot hold (NUL or an unpaired surrogate)');
type WebhookEvent = z.infer<typeof webhookEventSchema>;

const uuid = z.string().uuid();
const metadataSchema = z.record(z.string(), z.string()).nullish();
/** The invoice fields we use; the user comes from the subscription metadata Stripe copies onto it (new and older API shapes). */
const invoiceSchema = z.object({
  id: z.string(),
  amount_paid: z.number().int().nonnegative().default(0),
  amount_due: z.number().int().nonnegative().default(0),
  currency: z.string().default('usd'),
  metadata: metadataSchema,
  subscription_details: z.object({ metadata: metadataSchema }).nullish(),
  parent: z.object({ subscription_details: z.object({ metadata: metadataSchema }).nullish() }).nullish(),
  lines: z.object({ data: z.array(z.object({ metadata: metadataSchema, description: z.string().nullish() })) }).nullish(),
  last_finalization_error: z.object({ message: z.string().nullish(), code: z.string().nullish() }).nullish(),
});
/** What a failed asynchronous checkout adds to the billing history: its amount (cents) and invoice, when Stripe names them. */
const asyncSessionSchema = z.object({
  amount_total: z.number().int().nonnegative().nullish().transform((v) => v ?? null),
  invoice: z.union([z.string(), z.object({ id: z.string() })]).nullish().transform((v) => (v == null ? null : typeof v === 'string' ? v : v.id)),
});
const subscriptionObjectSchema = z.object({ id: z.string(), metadata: metadataSchema });

type Invoice = z.infer<typeof invoiceSchema>;
function invoiceUser(invoice: Invoice): { userId: string | undefined; planId: string | undefined } {
  const sources = [invoice.parent?.subscription_details?.metadata, invoice.subscription_details?.metadata, invoice.metadata, invoice.lines?.data[0]?.metadata];
  const found = sources.find((m) => m?.userId);
  return { userId: found?.userId, planId: found?.planId };
}

export function stripeWebhookRoutes(deps: CommandApiDeps): Router {
  const router = new Router();

  router.post(WEBHOOK_PATH, async (ctx) => {
    const secret = deps.config.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw new ServiceUnavailableError('Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET)');
    const signature = ctx.get('stripe-signature');
    if (!signature) throw new ValidationError('Missing Stripe-Signature header');
    const raw = await readRawBody(ctx);
    let signed: unknown;
    const nowMs = Date.parse(deps.handler.now());
    try {
      signed = Stripe.webhooks.constructEvent(raw, signature, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, nowMs);
      // After the signature: a timestamp is only trusted once it is known to be Stripe's.
      const age = nowMs / 1000 - signatureTimestamp(signature);
      if (!(Math.abs(age) <= WEBHOOK_TOLERANCE_SECONDS)) {
        throw new Stripe.errors.StripeSignatureVerificationError(signature, raw.toString('utf8'), { message: `Timestamp ${Math.round(-age)} s in the future, outside the tolerance zone` });
      }
    } catch (error) {
      deps.logger.warn('stripe webhook refused', { reason: error instanceof Error ? error.message : String(error) });
      // The signature is checked first; a body that is signed but not JSON fails after it.
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new ValidationError('Webhook signature verification failed');
      throw new ValidationError('The webhook body is not a JSON Stripe event');
    }
    let outcome: string;
    const envelope = webhookEventSchema.safeParse(signed);
    if (!envelope.success) {
      // Signed, so from Stripe, but not an event we can read (no id, type or data.object, or text the
      // event store cannot hold): acknowledged like any unexpected payload, so Stripe stops retrying.
      outcome = 'ignored: unexpected payload';
    } else {
      try {
        outcome = await handleEvent(deps, envelope.data);
      } catch (error) {
        // A signed event of a shape we do not know: acknowledged (a retry would not change it) and logged.
        if (!(error instanceof z.ZodError)) throw error;
        outcome = 'ignored: unexpected payload';
      }
    }
    deps.logger.info('stripe webhook', { eventId: envelope.data?.id ?? null, type: envelope.data?.type ?? null, outcome });
    ctx.body = { received: true, outcome };
  });

  return router;
}

function webhookMeta(eventId: string): CommandMeta {
  return {
    actor: STRIPE_WEBHOOK_ACTOR,
    correlationId: randomUUID(),
    causationId: eventId,
    idempotency: { scope: `${STRIPE_WEBHOOK_ACTOR}|POST|${WEBHOOK_PATH}`, key: eventId, requestHash: createHash('sha256').update(eventId).digest('hex') },
  };
}

/** What the event did: 'appended', 'duplicate' (already done), or why it was ignored. */
async function handleEvent(deps: CommandApiDeps, event: WebhookEvent): Promise<string> {
  const now = deps.handler.now();
  const run = async (userId: string, command: SubscriptionCommand) => {
    const result = await deps.handler.handle(subscriptionDecider, subscriptionStreamId(userId), command, webhookMeta(event.id));
    return result.events.length > 0 && !result.replayed ? 'appended' : 'duplicate';
  };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = sessionInfoFromStripe(event.data.object);
      if (!session.userId || !uuid.safeParse(session.userId).success) return 'ignored: no user on the session';
      // Asynchronous payment methods complete unpaid; checkout.session.async_payment_succeeded follows
      // (paid) or checkout.session.async_payment_failed. Either event may be redelivered: the session
      // activates once (the decider's once-rule), whichever of the success call and the two events comes first.
      if (!session.paid) return 'ignored: session not paid';
      // Activates once, or cancels the new subscription at Stripe when Premium is active already (confirm-payment.ts).
      const confirmed = await confirmPayment(deps, session.userId, session, 'webhook', webhookMeta(event.id));
      if (!confirmed.appended) return 'duplicate';
      return confirmed.outcome === 'cancelled-duplicate' ? 'cancelled: Premium was active already' : 'appended';
    }
    case 'checkout.session.async_payment_failed': {
      const session = sessionInfoFromStripe(event.data.object);
      if (!session.userId || !uuid.safeParse(session.userId).success) return 'ignored: no user on the session';
      const { amount_total, invoice } = asyncSessionSchema.parse(event.data.object);
      const plan = (session.planId && planById(session.planId)) || planForTier('PREMIUM');
      return run(session.userId, {
        type: 'RecordPaymentFailure',
        data: {
          userId: session.userId,
          failureId: event.id,
          invoiceId: invoice,
          amountUsd: amount_total === null ? plan.priceUsdPerMonth : amount_total / 100,
          description: `${plan.name} - monthly`,
          reason: `The asynchronous payment for checkout session ${session.id} failed`,
        },
        metadata: { now },
      });
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = invoiceSchema.parse(event.data.object);
      const { userId, planId } = invoiceUser(invoice);
      if (!userId || !uuid.safeParse(userId).success) return 'ignored: no user on the invoice';
      const plan = (planId && planById(planId)) || planForTier('PREMIUM');
      const description = invoice.lines?.data[0]?.description ?? `${plan.name} - monthly`;
      if (event.type === 'invoice.paid') {
        return run(userId, {
          type: 'RecordPayment',
          data: { userId, paymentId: invoice.id, invoiceId: invoice.id, sessionId: null, amountUsd: invoice.amount_paid / 100, description, source: 'stripe' },
          metadata: { now },
        });
      }
      const reason = invoice.last_finalization_error?.message ?? invoice.last_finalization_error?.code ?? 'payment failed';
      return run(userId, {
        type: 'RecordPaymentFailure',
        data: { userId, failureId: event.id, invoiceId: invoice.id, amountUsd: invoice.amount_due / 100, description, reason },
        metadata: { now },
      });
    }
    case 'customer.subscription.deleted': {
      const subscription = subscriptionObjectSchema.parse(event.data.object);
      const userId = subscription.metadata?.userId;
      if (!userId || !uuid.safeParse(userId).success) return 'ignored: no user on the subscription';
      return run(userId, { type: 'EndStripeSubscription', data: { userId, stripeSubscriptionId: subscription.id }, metadata: { now } });
    }
    default:
      return `ignored: ${event.type} is not handled`;
  }
}
