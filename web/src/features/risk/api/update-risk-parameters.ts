/**
 * PUT /api/risk/parameters with the full parameter set (spec section 7; premium only, the server
 * checks the bounds of section 5 and answers 400 naming the field). Every change on the Parameters
 * tab is sent at once; the requests go out one after another (each waits for the previous answer),
 * so a quick series of edits cannot land on the server out of order.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { riskParametersChangeResponseSchema, type RiskParameters, type RiskParametersChangeResponse } from '@papertrade/domain/trading/contracts';
import type { RiskParametersResponse } from '@papertrade/domain/trading/read-contracts';
import { sendJson } from '../../../lib/api-client';
import { activeTradesQueryOptions } from './get-active-trades';
import { RISK_PARAMETERS_PATH } from './get-risk-parameters';
import { riskQueryOptions } from './get-risk';

export function updateRiskParameters(parameters: RiskParameters): Promise<RiskParametersChangeResponse> {
  return sendJson('PUT', RISK_PARAMETERS_PATH, parameters, riskParametersChangeResponseSchema);
}

let queue: Promise<unknown> = Promise.resolve();

/** Sends after every earlier request of this kind has been answered (whatever the answer). */
function inOrder<T>(send: () => Promise<T>): Promise<T> {
  const next = queue.then(send, send);
  queue = next.catch(() => undefined);
  return next;
}

export function useUpdateRiskParameters() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (parameters: RiskParameters) => inOrder(() => updateRiskParameters(parameters)),
    onSuccess: ({ parameters }) => {
      // The command's answer is the set now in force: show it without waiting for the next poll.
      queryClient.setQueryData<RiskParametersResponse>([RISK_PARAMETERS_PATH], { ...parameters, customised: true });
      void queryClient.invalidateQueries({ queryKey: [RISK_PARAMETERS_PATH] });
      // One risk profile (issue 17): the dashboard's card and the open positions' levels read it too.
      void queryClient.invalidateQueries({ queryKey: riskQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: activeTradesQueryOptions().queryKey });
    },
  });
}
