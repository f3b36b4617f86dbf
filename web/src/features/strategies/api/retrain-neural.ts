/**
 * The neural strategy's Retrain: the ML slice's training request (POST /api/ml/create-model, the same
 * job as POST /api/ml/retrain) for a neural network with the strategy's learningRate and epochs, so
 * its configuration is what the model is trained with. Answers at once (202) with the job; the new
 * model's held-out accuracy comes when the job ends (ML Model Status), and the strategy reads the new
 * model from then on.
 */
import { useMutation } from '@tanstack/react-query';
import { trainingJobResponseSchema, type TrainingJobResponse } from '@papertrade/domain/ml/contracts';
import { sendJson } from '../../../lib/api-client';

export const RETRAIN_NEURAL_PATH = '/api/ml/create-model';
export const RETRAIN_TRAINING_DAYS = 30;

export function retrainNeural({ learningRate, epochs }: { learningRate: number; epochs: number }): Promise<TrainingJobResponse> {
  return sendJson('POST', RETRAIN_NEURAL_PATH, { modelType: 'neural_network', trainingDays: RETRAIN_TRAINING_DAYS, parameters: { learningRate, epochs } }, trainingJobResponseSchema);
}

export function useRetrainNeural() {
  return useMutation({ mutationFn: retrainNeural });
}
