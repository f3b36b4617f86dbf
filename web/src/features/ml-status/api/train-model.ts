/**
 * POST /api/ml/create-model and POST /api/ml/retrain: both answer at once with the training job
 * (202); the figures come when the job ends (ML_UPDATE, then GET /api/ml-status). Success refreshes
 * ml-status (spec section 4), which then shows the training under way.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trainingJobResponseSchema, type CreateModelRequest, type TrainingJobResponse } from '@papertrade/domain/ml/contracts';
import type { ModelTypeId } from '@papertrade/domain/ml/model-types';
import { sendJson } from '../../../lib/api-client';
import { mlStatusQueryOptions } from './get-ml-status';

export const CREATE_MODEL_PATH = '/api/ml/create-model';
export const RETRAIN_MODEL_PATH = '/api/ml/retrain';
/** Spec section 9: creation sends trainingDays 30 and an empty parameters object (every default). */
export const CREATE_TRAINING_DAYS = 30;

export function createModel(modelType: ModelTypeId): Promise<TrainingJobResponse> {
  const body: Pick<CreateModelRequest, 'modelType' | 'trainingDays'> & { parameters: Record<string, never> } = { modelType, trainingDays: CREATE_TRAINING_DAYS, parameters: {} };
  return sendJson('POST', CREATE_MODEL_PATH, body, trainingJobResponseSchema);
}

export function retrainModel(): Promise<TrainingJobResponse> {
  return sendJson('POST', RETRAIN_MODEL_PATH, undefined, trainingJobResponseSchema);
}

export function useCreateModel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createModel, onSuccess: () => queryClient.invalidateQueries({ queryKey: mlStatusQueryOptions().queryKey }) });
}

export function useRetrainModel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: retrainModel, onSuccess: () => queryClient.invalidateQueries({ queryKey: mlStatusQueryOptions().queryKey }) });
}
