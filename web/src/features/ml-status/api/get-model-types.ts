/** GET /api/ml/model-types: the model types for the Create form's select, with their measured figures. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { modelTypesResponseSchema, type ModelTypesResponse } from '@papertrade/domain/ml/contracts';
import { getJson } from '../../../lib/api-client';

export const MODEL_TYPES_PATH = '/api/ml/model-types';

export function getModelTypes(signal?: AbortSignal): Promise<ModelTypesResponse> {
  return getJson(MODEL_TYPES_PATH, modelTypesResponseSchema, { signal });
}

export function modelTypesQueryOptions() {
  return queryOptions({ queryKey: [MODEL_TYPES_PATH] as const, queryFn: ({ signal }) => getModelTypes(signal) });
}

export function useModelTypes({ enabled }: { enabled: boolean }) {
  return useQuery({ ...modelTypesQueryOptions(), enabled });
}
