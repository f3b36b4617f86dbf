/**
 * What /payment-success says, from the server's report of the session (POST /api/subscription/success)
 * or its refusal: 'Payment Successful!' only when this visit activated the subscription; a page opened
 * again later says what became of the session (already active, ended since, cancelled as a second
 * subscription, closed or expired unpaid). Plain data, so the browser tests check the same words.
 */
import { unpaidSessionProblemSchema, type PaymentSuccessResponse } from '@papertrade/domain/subscription/contracts';
import { ApiError } from '../../lib/api-client';

export interface PaymentReportText {
  /** data-testid of the section: payment-success, payment-active, payment-superseded, payment-duplicate, payment-closed, payment-expired, payment-failed. */
  testId: string;
  title: string;
  text: string;
  /** Whether the plan's features are listed (the plan is, or was just, the account's). */
  features: boolean;
  alert: boolean;
}

export function paymentReportText(answer: Pick<PaymentSuccessResponse, 'outcome' | 'plan' | 'tier'>): PaymentReportText {
  const name = answer.plan.name;
  switch (answer.outcome) {
    case 'activated':
      return { testId: 'payment-success', title: 'Payment Successful!', text: `Your ${name} subscription is now active.`, features: true, alert: false };
    case 'active':
      return { testId: 'payment-active', title: 'Payment Already Confirmed', text: `This payment was confirmed earlier: your ${name} subscription is active.`, features: true, alert: false };
    case 'superseded':
      return {
        testId: 'payment-superseded',
        title: 'Subscription No Longer Active',
        text: `This checkout was paid earlier, but the ${name} subscription it started has ended since: your account is now on the ${answer.tier} plan.`,
        features: false,
        alert: true,
      };
    case 'cancelled-duplicate':
      return {
        testId: 'payment-duplicate',
        title: 'Second Subscription Cancelled',
        text: `Your account already had an active ${name} subscription, so the one this checkout started was cancelled at the payment provider and will not renew.`,
        features: false,
        alert: true,
      };
  }
}

/** A refused report: closed or expired unpaid sessions by name, anything else as not confirmed. */
export function paymentRefusalText(error: unknown): PaymentReportText {
  const detail = error instanceof ApiError ? error.problem?.detail || null : null;
  let state: string | null = null;
  if (error instanceof ApiError && error.status === 409) {
    try {
      const parsed = unpaidSessionProblemSchema.safeParse(JSON.parse(error.bodyText));
      if (parsed.success) state = parsed.data.sessionState;
    } catch {
      // Not JSON: not confirmed, with the server's words if any.
    }
  }
  if (state === 'closed') return { testId: 'payment-closed', title: 'Checkout Closed', text: detail ?? 'This checkout is closed. Nothing was charged.', features: false, alert: true };
  if (state === 'expired') return { testId: 'payment-expired', title: 'Checkout Expired', text: detail ?? 'This checkout expired before it was paid. Nothing was charged.', features: false, alert: true };
  return { testId: 'payment-failed', title: 'Payment Not Confirmed', text: detail ?? 'We could not confirm this payment. Please try again later.', features: false, alert: true };
}
