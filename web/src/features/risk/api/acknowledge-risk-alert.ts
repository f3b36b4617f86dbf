/** POST /api/risk/alerts/{id}/acknowledge (premium): the alert stays listed, dimmed, until cleared. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { acknowledgeAlertResponseSchema } from '@papertrade/domain/trading/contracts';
import { sendJson } from '../../../lib/api-client';
import { RISK_ALERTS_PATH } from './get-risk-alerts';

export function acknowledgeRiskAlert(alertId: string) {
  return sendJson('POST', `${RISK_ALERTS_PATH}/${encodeURIComponent(alertId)}/acknowledge`, undefined, acknowledgeAlertResponseSchema);
}

export function useAcknowledgeRiskAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeRiskAlert,
    // The answer's position rides on the refetch (X-Min-Position), so the list shows the write.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [RISK_ALERTS_PATH] }),
  });
}
