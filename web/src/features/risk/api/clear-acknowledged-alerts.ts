/** DELETE /api/risk/alerts/acknowledged (premium): every acknowledged alert is cleared at once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { sendJson } from '../../../lib/api-client';
import { RISK_ALERTS_PATH } from './get-risk-alerts';

export const clearAcknowledgedAlertsResponseSchema = z.object({ alertIds: z.array(z.string()), position: z.string().nullable() });

export function clearAcknowledgedAlerts() {
  return sendJson('DELETE', `${RISK_ALERTS_PATH}/acknowledged`, undefined, clearAcknowledgedAlertsResponseSchema);
}

export function useClearAcknowledgedAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearAcknowledgedAlerts,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [RISK_ALERTS_PATH] }),
  });
}
