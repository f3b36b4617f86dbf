/** Backtest (spec sections 2 and 9): start and end dates (default 2024-01-01 to 2024-12-31) and capital (10000); Run queues the backtest job. */
import { useState } from 'react';
import { BACKTEST_DIALOG_DEFAULTS, type Strategy } from '@papertrade/domain/strategies/contracts';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useBacktestStrategy } from '../api/backtest-strategy';
import { backtestFailedToast, backtestStartedToast } from '../strategy-texts';
import { StrategyDialog } from './strategy-dialog';

export function BacktestDialog({ strategy, onClose, onStarted }: { strategy: Strategy | null; onClose: () => void; onStarted: (backtestId: string) => void }) {
  return (
    <StrategyDialog open={strategy !== null} title={strategy ? `Backtest ${strategy.name}` : 'Backtest'} testId="backtest-dialog" onClose={onClose}>
      {strategy && <BacktestForm key={strategy.id} strategy={strategy} onClose={onClose} onStarted={onStarted} />}
    </StrategyDialog>
  );
}

function BacktestForm({ strategy, onClose, onStarted }: { strategy: Strategy; onClose: () => void; onStarted: (backtestId: string) => void }) {
  const toast = useToast();
  const backtest = useBacktestStrategy();
  const [startDate, setStartDate] = useState(BACKTEST_DIALOG_DEFAULTS.startDate);
  const [endDate, setEndDate] = useState(BACKTEST_DIALOG_DEFAULTS.endDate);
  const [capital, setCapital] = useState(String(BACKTEST_DIALOG_DEFAULTS.initialCapital));
  return (
    <form
      className="strategy-form"
      onSubmit={(event) => {
        event.preventDefault();
        backtest.mutate(
          { id: strategy.id, request: { startDate, endDate, initialCapital: Number(capital) } },
          {
            onSuccess: (job) => {
              toast(backtestStartedToast());
              onStarted(job.backtestId);
              onClose();
            },
            // The spec's dialog only logs; the user is told here too, with the server's reason.
            onError: (error) => {
              console.error('strategy backtest failed', error);
              toast(backtestFailedToast(error));
            },
          },
        );
      }}
    >
      <label className="field">
        <span>Start date</span>
        <input className="input" type="date" data-testid="backtest-start" value={startDate} onChange={(e) => setStartDate(e.target.value)} />
      </label>
      <label className="field">
        <span>End date</span>
        <input className="input" type="date" data-testid="backtest-end" value={endDate} onChange={(e) => setEndDate(e.target.value)} />
      </label>
      <label className="field">
        <span>Initial capital (USD)</span>
        <input className="input num" type="number" min={100} step="any" data-testid="backtest-capital" value={capital} onChange={(e) => setCapital(e.target.value)} />
      </label>
      <div className="button-row strategy-dialog__actions">
        <button type="button" className="btn" onClick={onClose} disabled={backtest.isPending}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={backtest.isPending} data-testid="backtest-run">
          {backtest.isPending ? 'Starting...' : 'Run Backtest'}
        </button>
      </div>
    </form>
  );
}
