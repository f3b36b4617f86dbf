/**
 * Configure (spec sections 2, 4 and 5): the fields of the strategy's type with their bounds, filled
 * with its configuration (the defaults until configured). Saving sends the whole object and closes the
 * dialog with 'Configuration Saved'; a field the server refuses is named in the error toast and the
 * dialog stays open. An empty field takes the default (spec section 5).
 */
import { useState } from 'react';
import type { Strategy } from '@papertrade/domain/strategies/contracts';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useConfigureStrategy } from '../api/configure-strategy';
import { configurationFailedToast, configurationSavedToast, FIELD_LABELS } from '../strategy-texts';
import { StrategyDialog } from './strategy-dialog';

export function ConfigureDialog({ strategy, onClose }: { strategy: Strategy | null; onClose: () => void }) {
  return (
    <StrategyDialog open={strategy !== null} title={strategy ? `Configure ${strategy.name}` : 'Configure'} testId="configure-dialog" onClose={onClose}>
      {strategy && <ConfigureForm key={strategy.id} strategy={strategy} onClose={onClose} />}
    </StrategyDialog>
  );
}

function ConfigureForm({ strategy, onClose }: { strategy: Strategy; onClose: () => void }) {
  const toast = useToast();
  const configure = useConfigureStrategy();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(strategy.configuration).map(([k, v]) => [k, String(v)])));
  const fields = Object.keys(strategy.bounds);
  return (
    <form
      className="strategy-form"
      onSubmit={(event) => {
        event.preventDefault();
        const configuration = Object.fromEntries(fields.map((f) => [f, values[f]?.trim() ? Number(values[f]) : strategy.defaults[f]!]));
        configure.mutate(
          { id: strategy.id, configuration },
          {
            onSuccess: () => {
              toast(configurationSavedToast(strategy.name));
              onClose();
            },
            onError: (error) => toast(configurationFailedToast(error)),
          },
        );
      }}
    >
      {fields.map((f) => {
        const b = strategy.bounds[f]!;
        return (
          <label key={f} className="field">
            <span>{FIELD_LABELS[f] ?? f}</span>
            <input
              className="input num"
              type="number"
              name={f}
              data-testid={`config-${f}`}
              min={b.min}
              max={b.max}
              step={b.integer ? 1 : 'any'}
              placeholder={String(strategy.defaults[f])}
              value={values[f] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
            />
            <small className="strategy-form__hint">
              {b.min} to {b.max}, default {strategy.defaults[f]}
            </small>
          </label>
        );
      })}
      <div className="button-row strategy-dialog__actions">
        <button type="button" className="btn" onClick={onClose} disabled={configure.isPending}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={configure.isPending} data-testid="config-save">
          {configure.isPending ? 'Saving...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
