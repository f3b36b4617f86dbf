/**
 * One path for a paid checkout session, whoever reports it (the payment page's success call or
 * Stripe's webhook): activate it once, or, when the account's Premium is already active through
 * another subscription (or granted by hand), cancel the new subscription at the provider and record
 * DuplicatePaymentCancelled, so that an account is never billed twice and keeps tracking the
 * subscription it had (cancelling that one still stops all billing).
 */
import { checkoutStatus, subscriptionDecider, subscriptionStreamId, type SubscriptionCommand, type SubscriptionEvent } from '@papertrade/domain/auth/subscription';
import { planById, planForTier } from '@papertrade/domain/plans/catalogue';
import type { Plan } from '@papertrade/domain/plans/contracts';
import type { PaymentOutcome } from '@papertrade/domain/subscription/contracts';
import type { CommandMeta, CommandResult } from '@papertrade/platform/commands/command-handler';
import type { CommandApiDeps } from '../deps';
import { closeOtherCheckouts, type CheckoutSessionInfo } from './checkout-provider';

export interface Confirmation {
  plan: Plan;
  outcome: PaymentOutcome;
  /** The events this call appended (none for a repeat). */
  appended: boolean;
  result: CommandResult<SubscriptionEvent>;
}

/** `session` must be paid and the user's (the caller checked both). */
export async function confirmPayment(
  deps: Pick<CommandApiDeps, 'handler' | 'checkout' | 'logger'>,
  userId: string,
  session: CheckoutSessionInfo,
  via: 'success' | 'webhook',
  meta: CommandMeta,
): Promise<Confirmation> {
  const { handler, checkout } = deps;
  const plan = (session.planId && planById(session.planId)) || planForTier('PREMIUM');
  const stream = subscriptionStreamId(userId);
  const command: SubscriptionCommand = {
    type: 'ActivateSubscription',
    data: { userId, sessionId: session.id, planId: plan.id, tier: plan.tier, stripeSubscriptionId: session.stripeSubscriptionId, stripeCustomerId: session.stripeCustomerId, via },
    metadata: { now: handler.now() },
  };
  // The provider is told before the append (a failure appends nothing, and the next report tries
  // again); cancelling an ended subscription is a no-op, so a race that cancels twice is harmless.
  let cancelled = false;
  const cancelDuplicate = async () => {
    if (cancelled || !session.stripeSubscriptionId) return;
    await checkout.updateRenewal(session.stripeSubscriptionId, 'end-now');
    cancelled = true;
  };
  const loaded = await handler.load(subscriptionDecider, stream, meta);
  if (loaded.previous.length === 0 && subscriptionDecider.decide(command, loaded.state).some((e) => e.type === 'DuplicatePaymentCancelled')) await cancelDuplicate();
  const result = await handler.handle(subscriptionDecider, stream, command, meta, loaded);
  const appended = result.events.length > 0 && !result.replayed;
  const kind = result.events[0]?.type;
  // Decided again after a concurrent append (another session activated meanwhile): cancel now.
  if (appended && kind === 'DuplicatePaymentCancelled') {
    await cancelDuplicate();
    deps.logger.warn('payment while Premium was active: its subscription was cancelled at the provider', { userId, via, provider: checkout.kind });
  }
  if (appended && kind === 'SubscriptionActivated') {
    deps.logger.info('subscription activated', { userId, via, provider: checkout.kind });
    await closeOtherCheckouts(deps, userId, session.id);
  }
  const { state } = await handler.load(subscriptionDecider, stream);
  const status = checkoutStatus(state, session.id, handler.now());
  const outcome: PaymentOutcome =
    status === 'duplicate' ? 'cancelled-duplicate' : status === 'superseded' ? 'superseded' : appended && kind === 'SubscriptionActivated' ? 'activated' : 'active';
  return { plan, outcome, appended, result };
}
