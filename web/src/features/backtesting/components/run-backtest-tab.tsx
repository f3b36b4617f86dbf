/**
 * Run Backtest (spec sections 2, 5, 6 and 9): the strategy list (a radio group: name, description),
 * the form (coin, period, initial capital, and the chosen strategy's parameters as numeric inputs
 * with its min and max), Run, and while a run is under way its place in the queue or its progress.
 * Free users see all of it with Run disabled (the screen shows them 'Premium Required'). Run is
 * disabled while a run is under way, with no strategy selected, or while a field is out of its bounds
 * (the field says so); Enter in the form with no strategy says 'Strategy Required: Please select a
 * trading strategy'.
 */
import { useId, type FormEvent, type KeyboardEvent } from 'react';
import type { StrategyDefinition } from '@papertrade/domain/backtest/contracts';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { BACKTEST_SYMBOLS, CAPITAL_BOUNDS, formErrors, runDisabled, selectStrategy, toRequest, type BacktestFormState, type BacktestRequestBody } from '../backtest-form';
import { parameterLabel } from '../backtest-labels';
import { runStatusText, strategyRequiredToast } from '../backtest-texts';

export interface RunProgress {
  status: 'QUEUED' | 'RUNNING';
  queuePosition: number | null;
  /** 0..1 from JOB_PROGRESS, null before the first. */
  progress: number | null;
}

export function RunBacktestTab({
  premium,
  strategies,
  strategiesError,
  form,
  onFormChange,
  run,
  starting,
  onRun,
}: {
  premium: boolean;
  strategies: readonly StrategyDefinition[] | undefined;
  strategiesError: string | null;
  form: BacktestFormState;
  onFormChange: (form: BacktestFormState) => void;
  run: RunProgress | null;
  starting: boolean;
  onRun: (request: BacktestRequestBody) => void;
}) {
  const toast = useToast();
  const ids = useId();
  const now = new Date();
  const strategy = strategies?.find((s) => s.id === form.strategyId);
  const errors = formErrors(form, strategy, now);
  const running = run !== null || starting;
  const invalid = Object.keys(errors).length > 0;
  const disabled = runDisabled({ premium, running, strategyId: strategy ? form.strategyId : '' }) || invalid;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!strategy) {
      toast(strategyRequiredToast());
      return;
    }
    if (disabled) return;
    const request = toRequest(form, strategy, now);
    if (request.ok) onRun(request.value);
  }

  // A disabled Run button blocks the browser's implicit submission: Enter still says why nothing runs.
  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === 'Enter' && !strategy && event.target instanceof HTMLInputElement && event.target.type !== 'radio') {
      event.preventDefault();
      toast(strategyRequiredToast());
    }
  }

  const set = (patch: Partial<BacktestFormState>) => onFormChange({ ...form, ...patch });
  const field = (name: keyof BacktestFormState | `parameters.${string}`) => ({
    'aria-invalid': errors[name] !== undefined,
    'aria-describedby': `${ids}-${name}-hint`,
  });

  return (
    <form className="bt-run" onSubmit={submit} onKeyDown={onKeyDown} noValidate data-testid="backtest-form">
      <Panel title="Strategy" testId="backtest-strategies">
        {strategiesError !== null ? (
          <p className="empty-text" role="alert">
            {strategiesError}
          </p>
        ) : !strategies ? (
          <p className="empty-text">Loading strategies…</p>
        ) : (
          <fieldset className="bt-strategies">
            <legend className="visually-hidden">Trading strategy</legend>
            {strategies.map((s) => (
              <label key={s.id} className={s.id === form.strategyId ? 'bt-strategy bt-strategy--selected' : 'bt-strategy'} data-testid={`strategy-${s.id}`}>
                <input type="radio" name="strategy" value={s.id} checked={s.id === form.strategyId} onChange={() => onFormChange(selectStrategy(form, s))} />
                <span className="bt-strategy__text">
                  <span className="bt-strategy__name">{s.name}</span>
                  <span className="bt-strategy__description">{s.description}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
      </Panel>

      <Panel title="Backtest Settings" testId="backtest-settings">
        <div className="bt-fields">
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-symbol`}>
              Symbol
            </label>
            <select id={`${ids}-symbol`} className="input" value={form.symbol} data-testid="backtest-symbol" onChange={(e) => set({ symbol: e.target.value })} {...field('symbol')}>
              {BACKTEST_SYMBOLS.map((symbol) => (
                <option key={symbol} value={symbol}>
                  {symbol}
                </option>
              ))}
            </select>
            <span className="field__hint" id={`${ids}-symbol-hint`}>
              The coin's simulated market
            </span>
          </div>
          <DateField id={`${ids}-startDate`} label="Start Date" value={form.startDate} error={errors.startDate} onChange={(startDate) => set({ startDate })} testId="backtest-start" />
          <DateField id={`${ids}-endDate`} label="End Date" value={form.endDate} error={errors.endDate} onChange={(endDate) => set({ endDate })} testId="backtest-end" />
          <NumberField
            id={`${ids}-initialCapital`}
            label="Initial Capital ($)"
            value={form.initialCapital}
            min={CAPITAL_BOUNDS.min}
            max={CAPITAL_BOUNDS.max}
            step={100}
            error={errors.initialCapital}
            hint={`${CAPITAL_BOUNDS.min} to ${CAPITAL_BOUNDS.max}`}
            onChange={(initialCapital) => set({ initialCapital })}
            testId="backtest-capital"
          />
        </div>
        {strategy && Object.keys(strategy.parameters).length > 0 && (
          <fieldset className="bt-parameters" data-testid="backtest-parameters">
            <legend className="field__label">{strategy.name} parameters</legend>
            <div className="bt-fields">
              {Object.entries(strategy.parameters).map(([name, bounds]) => (
                <NumberField
                  key={`${strategy.id}-${name}`}
                  id={`${ids}-parameters.${name}`}
                  label={parameterLabel(name)}
                  value={form.parameters[name] ?? ''}
                  min={bounds.min}
                  max={bounds.max}
                  step={bounds.step ?? 'any'}
                  error={errors[`parameters.${name}`]}
                  hint={`${bounds.min} to ${bounds.max}${bounds.description ? `: ${bounds.description}` : ''}`}
                  onChange={(text) => set({ parameters: { ...form.parameters, [name]: text } })}
                  testId={`backtest-param-${name}`}
                />
              ))}
            </div>
          </fieldset>
        )}
        <div className="bt-run__actions">
          <button type="submit" className="btn btn--primary" disabled={disabled} data-testid="run-backtest">
            {running ? 'Running...' : 'Run Backtest'}
          </button>
          {!strategy ? (
            <span className="field__hint">Select a strategy to run a backtest.</span>
          ) : (
            invalid && <span className="field__error">Correct the fields marked above to run.</span>
          )}
        </div>
        {run && (
          <div className="bt-progress" data-testid="backtest-progress">
            <span data-testid="backtest-progress-text">{runStatusText(run.status, run.queuePosition, run.progress)}</span>
            <progress max={1} value={run.progress ?? 0} aria-label="Backtest progress" />
          </div>
        )}
      </Panel>
    </form>
  );
}

function DateField({ id, label, value, error, onChange, testId }: { id: string; label: string; value: string; error: string | undefined; onChange: (v: string) => void; testId: string }) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" type="date" value={value} aria-invalid={error !== undefined} aria-describedby={`${id}-hint`} data-testid={testId} onChange={(e) => onChange(e.target.value)} />
      <span className={error ? 'field__error' : 'field__hint'} id={`${id}-hint`}>
        {error ?? 'UTC calendar day'}
      </span>
    </div>
  );
}

function NumberField({
  id,
  label,
  value,
  min,
  max,
  step,
  error,
  hint,
  onChange,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  min: number;
  max: number;
  step: number | 'any';
  error: string | undefined;
  hint: string;
  onChange: (text: string) => void;
  testId: string;
}) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-invalid={error !== undefined}
        aria-describedby={`${id}-hint`}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      />
      <span className={error ? 'field__error' : 'field__hint'} id={`${id}-hint`}>
        {error ?? hint}
      </span>
    </div>
  );
}
