/** Follows a backtest started from a card until it ends: 'Backtest Completed' with its trade count and win rate, or 'Backtest Failed' with why; then the cards are read again (their figures may now come from it), and the completed run is handed on for the result panel. */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useBacktestResult } from '../api/get-backtest-result';
import { strategiesQueryOptions } from '../api/get-strategies';
import { backtestCompletedToast } from '../strategy-texts';

export function BacktestWatcher({ backtestId, onEnded }: { backtestId: string; onEnded: (completed: BacktestDetail | null) => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const result = useBacktestResult(backtestId);
  const data = result.data;
  useEffect(() => {
    if (!data || (data.status !== 'COMPLETED' && data.status !== 'FAILED')) return;
    if (data.status === 'COMPLETED' && data.result) toast(backtestCompletedToast(data.result.totalTrades, data.result.winRate));
    else toast({ title: 'Backtest Failed', description: data.error ?? 'The backtest could not run', variant: 'destructive' });
    void queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey });
    onEnded(data.status === 'COMPLETED' && data.result ? data : null);
  }, [data, toast, queryClient, onEnded]);
  return null;
}
