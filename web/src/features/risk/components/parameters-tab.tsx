/**
 * The Parameters tab: every risk parameter with the bounds and steps of section 5. Each change is
 * sent at once as the full set (PUT /api/risk/parameters): a typed value as soon as it is a number
 * within its bounds, a select or a switch on change. Non-premium users see the values read-only
 * with a 'Basic' badge (the server refuses their PUT anyway).
 *
 * What is shown is the server's set with the user's pending edits on top; an edit is dropped once
 * the server's set carries it, so a later poll never overwrites what is being typed.
 *
 * These are the one risk profile (issue 17): position size, stop loss, take profit and daily loss are
 * the same fields the Bot Settings and the dashboard's card show. Each input says what its rule does
 * (risk-profile-labels.ts); the stop loss value is a percent for fixed and trailing stops and the
 * multiple k for atr and volatility ones, and its label and hint follow the type chosen. A ratio set
 * through Bot Settings may be an exact division (5 / 3): it shows rounded and is sent unchanged unless
 * edited.
 */
import { useState } from 'react';
import { stopLossTypes, type RiskParameters, type StopLossType } from '@papertrade/domain/trading/contracts';
import type { RiskParametersResponse } from '@papertrade/domain/trading/read-contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { ApiError } from '../../../lib/api-client';
import { useRiskParameters } from '../api/get-risk-parameters';
import { useUpdateRiskParameters } from '../api/update-risk-parameters';
import { numericParameterFields, parseParameterInput, type NumericParameter } from '../parameter-fields';
import { formatRatio, parameterHints, stopLossTypeHints, stopLossValueLabel } from '../risk-profile-labels';

/** Spec section 8: 'Error: Failed to update risk parameters' (the server's reason after it, when it gave one). */
const UPDATE_ERROR = 'Failed to update risk parameters';

const stopLossTypeLabels: Record<StopLossType, string> = { fixed: 'Fixed', trailing: 'Trailing', atr: 'ATR', volatility: 'Volatility' };

function parametersOf(response: RiskParametersResponse): RiskParameters {
  const { customised: _customised, ...parameters } = response;
  return parameters;
}

export function ParametersTab({ premium }: { premium: boolean }) {
  const query = useRiskParameters({ enabled: true });
  const update = useUpdateRiskParameters();
  const toast = useToast();
  const [drafts, setDrafts] = useState<Partial<Record<NumericParameter, string>>>({});
  /** The last set sent, so two quick edits of different fields both reach the server. */
  const [sent, setSent] = useState<RiskParameters | null>(null);

  if (query.isError) return <FetchError text="Failed to fetch risk parameters" error={query.error} />;
  if (!query.data) return <p className="empty-text">Loading…</p>;
  const server = parametersOf(query.data);
  const current: RiskParameters = { ...server, ...(update.isPending && sent ? sent : {}) };

  function send(next: RiskParameters, field?: NumericParameter) {
    setSent(next);
    update.mutate(next, {
      onSuccess: () => toast({ title: 'Success', description: 'Risk parameters updated' }),
      onError: (error) => {
        // The server kept the old value: show it again rather than the refused text.
        if (field) setDrafts(({ [field]: _refused, ...rest }) => rest);
        toast({ title: 'Error', description: UPDATE_ERROR + (error instanceof ApiError && error.problem?.detail ? `: ${error.problem.detail}` : ''), variant: 'destructive' });
      },
    });
  }

  function onNumber(name: NumericParameter, text: string, bounds: (typeof numericParameterFields)[number]['bounds']) {
    setDrafts((d) => ({ ...d, [name]: text }));
    const parsed = parseParameterInput(text, bounds);
    if (parsed.ok && parsed.value !== current[name]) send({ ...current, [name]: parsed.value }, name);
  }

  function onBlur(name: NumericParameter) {
    // Leaving a valid field shows the server's figure again; an invalid one keeps its text and error.
    setDrafts((d) => {
      const text = d[name];
      if (text === undefined) return d;
      const field = numericParameterFields.find((f) => f.name === name)!;
      if (!parseParameterInput(text, field.bounds).ok) return d;
      const { [name]: _dropped, ...rest } = d;
      return rest;
    });
  }

  return (
    <Panel title="Risk Parameters" testId="risk-parameters" actions={premium ? <span className="badge badge--premium">Premium</span> : <span className="badge" data-testid="basic-badge">Basic</span>}>
      {!premium && <p className="empty-text">Upgrade to Premium to change your risk parameters.</p>}
      <div className="risk-screen__grid">
        {numericParameterFields.map(({ name, label: fixedLabel, bounds }) => {
          const text = drafts[name] ?? formatRatio(current[name]);
          const label = name === 'stopLossValue' ? stopLossValueLabel(current.stopLossType) : fixedLabel;
          const hint = name === 'stopLossValue' ? stopLossTypeHints[current.stopLossType] : parameterHints[name];
          const parsed = parseParameterInput(text, bounds);
          const id = `risk-param-${name}`;
          return (
            <div key={name} className={parsed.ok ? 'field' : 'field field--invalid'}>
              <label className="field__label" htmlFor={id}>
                {label}
              </label>
              <input
                id={id}
                className="input"
                type="number"
                inputMode="decimal"
                min={bounds.min}
                max={bounds.max}
                step={bounds.step}
                value={text}
                disabled={!premium}
                aria-invalid={!parsed.ok}
                data-testid={id}
                onChange={(e) => onNumber(name, e.target.value, bounds)}
                onBlur={() => onBlur(name)}
              />
              {parsed.ok ? (
                <span className="field__hint" data-testid={`${id}-hint`}>
                  {bounds.min} to {bounds.max}
                  {hint ? `: ${hint}` : ''}
                </span>
              ) : (
                <span className="field__error">{parsed.error}</span>
              )}
            </div>
          );
        })}
        <div className="field">
          <label className="field__label" htmlFor="risk-param-stopLossType">
            Stop Loss Type
          </label>
          <select
            id="risk-param-stopLossType"
            className="input"
            value={current.stopLossType}
            disabled={!premium}
            data-testid="risk-param-stopLossType"
            onChange={(e) => send({ ...current, stopLossType: e.target.value as StopLossType })}
          >
            {stopLossTypes.map((t) => (
              <option key={t} value={t}>
                {stopLossTypeLabels[t]}
              </option>
            ))}
          </select>
          <span className="field__hint">{stopLossTypeHints[current.stopLossType]}</span>
        </div>
        <label className="switch-field">
          <input
            type="checkbox"
            checked={current.kellyCriterionEnabled}
            disabled={!premium}
            data-testid="risk-param-kellyCriterionEnabled"
            onChange={(e) => send({ ...current, kellyCriterionEnabled: e.target.checked })}
          />
          Kelly Criterion
          <span className="field__hint">{parameterHints.kellyCriterionEnabled}</span>
        </label>
        <label className="switch-field">
          <input
            type="checkbox"
            checked={current.dynamicPositionSizing}
            disabled={!premium}
            data-testid="risk-param-dynamicPositionSizing"
            onChange={(e) => send({ ...current, dynamicPositionSizing: e.target.checked })}
          />
          Dynamic Position Sizing
          <span className="field__hint">{parameterHints.dynamicPositionSizing}</span>
        </label>
      </div>
    </Panel>
  );
}
