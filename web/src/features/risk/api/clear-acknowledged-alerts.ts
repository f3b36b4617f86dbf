/** DELETE /api/risk/alerts/acknowledged (premium): every acknowledged alert is cleared at once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clearAlertsResponseSchema } from '@papertrade/domain/trading/contracts';
import { sendJson } from '../../../lib/api-client';
import { RISK_ALERTS_PATH } from './get-risk-alerts';

export function clearAcknowledgedAlerts() {
  return sendJson('DELETE', `${RISK_ALERTS_PATH}/acknowledged`, undefined, clearAlertsResponseSchema);
}

export function useClearAcknowledgedAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearAcknowledgedAlerts,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [RISK_ALERTS_PATH] }),
  });
}
