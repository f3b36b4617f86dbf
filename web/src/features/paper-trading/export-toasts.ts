/** The Export Data toasts (spec sections 5 and 8). */
import type { ToastInput } from '../../components/ui/toast/toast-slice';
import { describeError } from '../../lib/api-client';

export const NO_EXPORT_DATA: ToastInput = { title: 'Export Failed', description: 'No data available to export', variant: 'destructive' };
export const EXPORT_COMPLETE: ToastInput = { title: 'Export Complete', description: 'Trading data has been downloaded as CSV file', variant: 'success' };

export function exportFailureToast(error: unknown): ToastInput {
  return { title: 'Export Failed', description: describeError(error, 'The trades could not be exported'), variant: 'destructive' };
}
