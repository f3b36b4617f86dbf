/** Follows the neural card's Retrain to the end of its training job: 'Model Retrained' with the new held-out accuracy, or 'Training Failed'. */
import { useEffect } from 'react';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useModelStatusUntil } from '../api/get-model-status';
import { retrainEndedToast } from '../strategy-texts';

export function RetrainWatcher({ jobId, onEnded }: { jobId: string; onEnded: () => void }) {
  const toast = useToast();
  const status = useModelStatusUntil(jobId);
  const data = status.data;
  useEffect(() => {
    const ended = data ? retrainEndedToast(data, jobId) : null;
    if (!ended) return;
    toast(ended);
    onEnded();
  }, [data, jobId, toast, onEnded]);
  return null;
}
