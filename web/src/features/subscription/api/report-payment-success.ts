/**
 * POST /api/subscription/success {sessionId}: /payment-success reports the checkout session of its
 * query string once on open; the answer names the plan bought. The server checks that the session is
 * paid and the caller's, and activates once (a repeat appends nothing).
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { paymentSuccessResponseSchema, type PaymentSuccessResponse } from '@papertrade/domain/subscription/contracts';
import { sendJson } from '../../../lib/api-client';
import { oncePerKey } from '../once-per-key';
import { subscriptionChanged } from '../subscription-changed';

export const PAYMENT_SUCCESS_PATH = '/api/subscription/success';

export function reportPaymentSuccess(sessionId: string): Promise<PaymentSuccessResponse> {
  return sendJson('POST', PAYMENT_SUCCESS_PATH, { sessionId }, paymentSuccessResponseSchema);
}

/** Module-level, so StrictMode's second effect run and a remount share the first report. */
const reportOnce = oncePerKey(reportPaymentSuccess);

export type PaymentReport = { status: 'pending' } | { status: 'success'; data: PaymentSuccessResponse } | { status: 'error'; error: unknown };

export function useReportPaymentSuccess(sessionId: string | null): PaymentReport {
  const queryClient = useQueryClient();
  const [report, setReport] = useState<{ sessionId: string; state: PaymentReport } | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    let current = true;
    reportOnce(sessionId).then(
      async (data) => {
        // The new tier shows in the sidebar and on /subscription without a reload.
        await subscriptionChanged(queryClient);
        if (current) setReport({ sessionId, state: { status: 'success', data } });
      },
      (error: unknown) => {
        // Spec section 8: a failed report is logged; the page also says it could not confirm.
        console.error('Payment session report failed', error);
        if (current) setReport({ sessionId, state: { status: 'error', error } });
      },
    );
    return () => {
      current = false;
    };
  }, [sessionId, queryClient]);
  return report && report.sessionId === sessionId ? report.state : { status: 'pending' };
}
