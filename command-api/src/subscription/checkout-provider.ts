/**
 * Where checkout happens: Stripe (STRIPE_SECRET_KEY set) or the built-in test checkout (the embedded
 * default). Both answer the same two questions, so POST /api/subscription/success and the webhook
 * take one path: "start a session for this user and plan" and "what is this session: whose, which
 * plan, paid or not".
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { z } from 'zod';
import { checkoutStatus, subscriptionDecider, subscriptionStreamId, type StartedCheckout } from '@papertrade/domain/auth/subscription';
import type { Plan } from '@papertrade/domain/plans/contracts';
import { NotFoundError, ServiceUnavailableError } from '@papertrade/domain/shared/errors';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';

export interface CheckoutSessionInfo {
  id: string;
  /** The user the session was opened for (Stripe: client_reference_id). */
  userId: string | null;
  planId: string | null;
  paid: boolean;
  /** Stripe's payment_status ('paid', 'unpaid', ...), or the test checkout's. */
  paymentStatus: string;
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  /** The provider says the session can no longer be paid (Stripe: status expired). */
  expired?: boolean;
}

export interface NewSession {
  userId: string;
  email: string;
  plan: Plan;
  successUrl: string;
  cancelUrl: string;
  /** When it stops being payable (the domain's CHECKOUT_SESSION_TTL_MS; Stripe's expires_at). */
  expiresAt: string;
}

export interface CheckoutProvider {
  readonly kind: 'stripe' | 'test';
  createSession(input: NewSession): Promise<{ id: string; url: string }>;
  /** The URL recorded with the session (CheckoutStarted): Stripe's page; null for the test checkout, whose page is on the request's origin. */
  urlToRecord(session: { id: string; url: string }): string | null;
  /** Where the browser pays a recorded open checkout, without asking the provider when the URL was recorded; null once the provider says it is closed. */
  openUrl(checkout: StartedCheckout, origin: string): Promise<string | null>;
  /** NotFoundError when no such session exists. */
  retrieveSession(sessionId: string): Promise<CheckoutSessionInfo>;
  /** Where the browser pays an open session (a retried checkout answers it again); null once it is closed. */
  sessionUrl(sessionId: string, origin: string): Promise<string | null>;
  /**
   * Keeps the provider's billing in step with a cancel (stop renewing), a reactivation (renew again)
   * or a move to Free (end now). The test checkout bills nothing, so it has nothing to do.
   */
  updateRenewal(stripeSubscriptionId: string, change: 'stop-renewing' | 'renew' | 'end-now'): Promise<void>;
  /**
   * Closes an open session so that it can no longer be paid (Stripe: expire it; one that is paid,
   * expired or closed already is left as it is). A test checkout session is closed by the domain
   * itself (an activation closes the account's other unpaid sessions: checkoutStatus), so the test
   * checkout has nothing to do.
   */
  closeSession(sessionId: string): Promise<void>;
}

/**
 * After an activation: the account's other checkout sessions are closed at the provider, so that a
 * second one left open in another tab cannot be paid too (a second Stripe subscription, billed every
 * month besides the first). Best effort: a failure is logged, and Stripe expires an open session
 * after 24 hours anyway.
 */
export async function closeOtherCheckouts(
  deps: { handler: CommandHandler; checkout: CheckoutProvider; logger: { warn(message: string, fields?: Record<string, unknown>): void } },
  userId: string,
  activatedSessionId: string,
): Promise<void> {
  const { state } = await deps.handler.load(subscriptionDecider, subscriptionStreamId(userId));
  const open = state.checkouts.filter((c) => c.sessionId !== activatedSessionId && !state.activated.includes(c.sessionId) && !state.paid.includes(c.sessionId));
  for (const { sessionId } of open) {
    await deps.checkout.closeSession(sessionId).catch((error: unknown) => {
      deps.logger.warn('could not close a checkout session after an activation', { userId, sessionId, error: error instanceof Error ? error.message : String(error) });
    });
  }
}


/** The `{CHECKOUT_SESSION_ID}` template Stripe fills in; the test checkout fills it in the same way. */
export const SESSION_ID_TEMPLATE = '{CHECKOUT_SESSION_ID}';

const idOrObject = z.union([z.string(), z.object({ id: z.string() })]).nullish().transform((v) => (v == null ? null : typeof v === 'string' ? v : v.id));

/** The fields of a Checkout Session we rely on, checked rather than trusted. */
export const stripeSessionSchema = z.object({
  id: z.string(),
  client_reference_id: z.string().nullish().transform((v) => v ?? null),
  payment_status: z.string(),
  status: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  subscription: idOrObject,
  customer: idOrObject,
  url: z.string().nullish(),
});

export function sessionInfoFromStripe(raw: unknown): CheckoutSessionInfo {
  const s = stripeSessionSchema.parse(raw);
  return {
    id: s.id,
    userId: s.client_reference_id,
    planId: s.metadata?.planId ?? null,
    // "paid" for a charged subscription, "no_payment_required" for a 100% coupon: both mean access is bought.
    paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
    paymentStatus: s.payment_status,
    stripeSubscriptionId: s.subscription,
    stripeCustomerId: s.customer,
    expired: s.status === 'expired',
  };
}

export class StripeCheckout implements CheckoutProvider {
  readonly kind = 'stripe';
  constructor(private readonly stripe: Stripe) {}

  static fromConfig(secretKey: string, apiUrl?: string): StripeCheckout {
    const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 15_000, telemetry: false };
    if (apiUrl) {
      const url = new URL(apiUrl);
      Object.assign(options!, { host: url.hostname, port: url.port || (url.protocol === 'https:' ? 443 : 80), protocol: url.protocol.slice(0, -1) as 'http' | 'https' });
    }
    return new StripeCheckout(new Stripe(secretKey, options));
  }

  async createSession(input: NewSession) {
    const metadata = { userId: input.userId, planId: input.plan.id };
    try {
      const session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        // The end the domain records, so both agree on when the account's open checkout stops being open.
        expires_at: Math.floor(Date.parse(input.expiresAt) / 1000),
        client_reference_id: input.userId,
        customer_email: input.email,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata,
        // Copied onto the subscription, and by Stripe onto its invoices: how webhooks find the user.
        subscription_data: { metadata },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: Math.round(input.plan.priceUsdPerMonth * 100),
              recurring: { interval: 'month' },
              product_data: { name: input.plan.name },
            },
          },
        ],
      });
      if (!session.url) throw new ServiceUnavailableError('Stripe did not return a checkout URL; please try again');
      return { id: session.id, url: session.url };
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  urlToRecord(session: { id: string; url: string }): string | null {
    return session.url;
  }

  async openUrl(checkout: StartedCheckout): Promise<string | null> {
    return checkout.url ?? this.sessionUrl(checkout.sessionId);
  }

  async retrieveSession(sessionId: string): Promise<CheckoutSessionInfo> {
    try {
      return sessionInfoFromStripe(await this.stripe.checkout.sessions.retrieve(sessionId));
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  async sessionUrl(sessionId: string): Promise<string | null> {
    try {
      const session = stripeSessionSchema.parse(await this.stripe.checkout.sessions.retrieve(sessionId));
      // Stripe keeps the URL while the session is open only.
      return session.status === 'open' ? (session.url ?? null) : null;
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  async closeSession(sessionId: string): Promise<void> {
    try {
      const session = stripeSessionSchema.parse(await this.stripe.checkout.sessions.retrieve(sessionId));
      if (session.status === 'open') await this.stripe.checkout.sessions.expire(sessionId);
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  async updateRenewal(stripeSubscriptionId: string, change: 'stop-renewing' | 'renew' | 'end-now'): Promise<void> {
    try {
      // The account may still name a subscription that has ended (a move to Free, then Premium granted
      // by hand): nothing bills any more, so there is nothing to change, and Stripe would refuse it.
      const current = await this.stripe.subscriptions.retrieve(stripeSubscriptionId);
      if (current.status === 'canceled' || current.status === 'incomplete_expired') return;
      if (change === 'end-now') await this.stripe.subscriptions.cancel(stripeSubscriptionId);
      else await this.stripe.subscriptions.update(stripeSubscriptionId, { cancel_at_period_end: change === 'stop-renewing' });
    } catch (error) {
      throw stripeFailure(error);
    }
  }
}

/** Stripe's "no such session" is our 404; anything else from Stripe (down, refused key) a 503. */
function stripeFailure(error: unknown): Error {
  if (error instanceof NotFoundError || error instanceof ServiceUnavailableError) return error;
  if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return new NotFoundError('Checkout session not found');
  const detail = error instanceof Error ? error.message : String(error);
  return new ServiceUnavailableError(`The payment provider could not be reached or refused the request: ${detail}`);
}

const testCheckoutUrl = (origin: string, sessionId: string) => `${origin}/test-checkout/${sessionId}`;

/** Test session ids carry their user (32 hex digits of the uuid), so the test page finds the stream without a sign-in. */
const TEST_SESSION = /^cs_test_local_([0-9a-f]{32})_([0-9a-f]{24})$/;

export function testSessionUserId(sessionId: string): string | null {
  const m = TEST_SESSION.exec(sessionId);
  if (!m) return null;
  const h = m[1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The embedded stand-in for Stripe: a session is the CheckoutStarted event on the user's stream,
 * "paid" is a PaymentRecorded of that session (appended by the test page's Pay button). Nothing is
 * kept in memory, so it works across restarts and command-api instances.
 */
export class TestCheckout implements CheckoutProvider {
  readonly kind = 'test';
  constructor(private readonly handler: CommandHandler) {}

  async createSession(input: Pick<NewSession, 'userId' | 'successUrl'>) {
    const id = `cs_test_local_${input.userId.replace(/-/g, '')}_${randomBytes(12).toString('hex')}`;
    // Relative to the public origin the success URL names.
    return { id, url: testCheckoutUrl(new URL(input.successUrl).origin, id) };
  }

  urlToRecord(): null {
    return null;
  }

  async openUrl(checkout: StartedCheckout, origin: string): Promise<string | null> {
    return testCheckoutUrl(origin, checkout.sessionId);
  }

  async sessionUrl(sessionId: string, origin: string): Promise<string | null> {
    const userId = testSessionUserId(sessionId);
    if (!userId) throw new NotFoundError('Checkout session not found');
    const { state } = await this.handler.load(subscriptionDecider, subscriptionStreamId(userId));
    return checkoutStatus(state, sessionId, this.handler.now()) === 'open' ? testCheckoutUrl(origin, sessionId) : null;
  }

  async retrieveSession(sessionId: string): Promise<CheckoutSessionInfo> {
    const userId = testSessionUserId(sessionId);
    if (!userId) throw new NotFoundError('Checkout session not found');
    const { state } = await this.handler.load(subscriptionDecider, subscriptionStreamId(userId));
    const checkout = state.checkouts.find((c) => c.sessionId === sessionId && c.source === 'test');
    if (!checkout) throw new NotFoundError('Checkout session not found');
    const paid = state.paid.includes(sessionId);
    const status = checkoutStatus(state, sessionId, this.handler.now());
    return { id: sessionId, userId, planId: checkout.planId, paid, paymentStatus: paid ? 'paid' : status === 'open' ? 'unpaid' : status, stripeSubscriptionId: null, stripeCustomerId: null, expired: status === 'expired' };
  }

  async updateRenewal(): Promise<void> {}

  async closeSession(): Promise<void> {}
}
