/**
 * One exchange of the Exchanges tab: its fee, status (Connected / Disconnected / Error), what the
 * testnet means for it, the key fields (a saved key shows only as its last four characters: the server
 * never sends a key back), Save Configuration, Test Connection (disabled unless both keys are filled),
 * the last test's error in the exchange's words, and Mirror to testnet where there is a testnet.
 */
import { useId, useState } from 'react';
import type { ExchangeConnection } from '@papertrade/domain/exchanges/contracts';
import { useToast } from '../../../components/ui/toast/use-toast';
import { describeError } from '../../../lib/api-client';
import { formatPercent, formatUsd } from '../../../lib/number-format';
import { useSaveExchangeConfig } from '../api/save-exchange-config';
import { useSetExchangeMirror } from '../api/set-exchange-mirror';
import { useTestExchangeConnection } from '../api/test-exchange-connection';
import {
  CONNECTION_FAILED_TOAST,
  SAVE_CONFIGURATION_FAILED,
  canTestConnection,
  connectionSuccessText,
  draftComplete,
  statusBadgeClass,
  statusLabel,
  testnetNote,
  type CredentialDraft,
} from '../exchange-labels';

const EMPTY: CredentialDraft = { apiKey: '', secretKey: '', passphrase: '' };

export function ExchangeCard({ exchange }: { exchange: ExchangeConnection }) {
  const id = useId();
  const toast = useToast();
  const save = useSaveExchangeConfig();
  const test = useTestExchangeConnection();
  const mirror = useSetExchangeMirror();
  const [draft, setDraft] = useState<CredentialDraft>(EMPTY);
  const [testnet, setTestnet] = useState<boolean | null>(null);
  const useTestnet = exchange.testnetAvailable ? (testnet ?? exchange.testnet) : false;
  const busy = save.isPending || test.isPending;

  async function saveDraft(): Promise<boolean> {
    try {
      await save.mutateAsync({
        exchangeId: exchange.id,
        config: { apiKey: draft.apiKey.trim(), secretKey: draft.secretKey.trim(), ...(exchange.needsPassphrase ? { passphrase: draft.passphrase.trim() } : {}), testnet: useTestnet },
      });
      setDraft(EMPTY);
      return true;
    } catch (error) {
      toast({ title: 'Error', description: describeError(error, SAVE_CONFIGURATION_FAILED), variant: 'destructive' });
      return false;
    }
  }

  async function onSave() {
    if (await saveDraft()) toast({ title: 'Configuration Saved', description: `${exchange.name} API keys saved (encrypted)`, variant: 'success' });
  }

  async function onTest() {
    if (draftComplete(exchange, draft) && !(await saveDraft())) return;
    try {
      const result = await test.mutateAsync(exchange.id);
      if (result.status === 'connected') toast({ title: 'Connection Successful', description: connectionSuccessText(exchange, result.balance?.totalUsd ?? null, formatUsd), variant: 'success' });
      else toast(CONNECTION_FAILED_TOAST);
    } catch {
      toast(CONNECTION_FAILED_TOAST);
    }
  }

  function onMirror(on: boolean) {
    mirror.mutate(
      { exchangeId: exchange.id, mirrorToTestnet: on },
      {
        onSuccess: () => toast({ title: 'Configuration Saved', description: on ? `Bot trades are mirrored to the ${exchange.name} testnet` : `Mirror to ${exchange.name} testnet off`, variant: 'success' }),
        onError: (error) => toast({ title: 'Error', description: describeError(error, SAVE_CONFIGURATION_FAILED), variant: 'destructive' }),
      },
    );
  }

  const field = (name: keyof CredentialDraft, label: string, type: 'text' | 'password') => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className="input"
        type={type}
        autoComplete="off"
        spellCheck={false}
        value={draft[name]}
        placeholder={exchange.configured ? (name === 'apiKey' ? `Saved key ending ${exchange.keyLast4}` : 'Saved (encrypted)') : ''}
        data-testid={`exchange-${exchange.id}-${name}`}
        onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
      />
    </div>
  );

  return (
    <section className="exchange-card panel" aria-labelledby={`${id}-name`} data-testid={`exchange-${exchange.id}`}>
      <header className="panel__header">
        <h2 id={`${id}-name`} className="panel__title">
          {exchange.name}
        </h2>
        <span className={statusBadgeClass(exchange.status)} data-testid={`exchange-${exchange.id}-status`}>
          {statusLabel(exchange.status)}
        </span>
      </header>
      <div className="panel__body exchange-card__body">
        <p className="exchange-card__meta">
          <span>Fee {formatPercent(exchange.feePercent)}</span>
          {exchange.testnetAvailable ? <span className="badge badge--accent">{useTestnet ? 'Testnet' : 'Live'}</span> : <span className="badge">Read-only</span>}
          {exchange.configured && <span data-testid={`exchange-${exchange.id}-key`}>Key ••••{exchange.keyLast4}</span>}
        </p>
        <p className="field__hint" data-testid={`exchange-${exchange.id}-testnet-note`}>
          {testnetNote({ ...exchange, testnet: useTestnet })}
        </p>
        {field('apiKey', 'API Key', 'text')}
        {field('secretKey', 'Secret Key', 'password')}
        {exchange.needsPassphrase && field('passphrase', 'Passphrase', 'password')}
        {exchange.testnetAvailable && (
          <label className="switch-field">
            <input type="checkbox" checked={useTestnet} onChange={(e) => setTestnet(e.target.checked)} data-testid={`exchange-${exchange.id}-testnet`} />
            Use testnet
          </label>
        )}
        {exchange.status === 'error' && exchange.error && (
          <p className="exchange-card__error" role="status" data-testid={`exchange-${exchange.id}-error`}>
            Connection Failed: {exchange.error.message}
          </p>
        )}
        {exchange.status === 'connected' && exchange.balance && (
          <p className="exchange-card__balance" data-testid={`exchange-${exchange.id}-balance`}>
            Balance {formatUsd(exchange.balance.totalUsd)} · {formatPercent(exchange.balance.allocatedPercent)} allocated
          </p>
        )}
        <div className="button-row">
          <button type="button" className="btn" disabled={busy || !draftComplete(exchange, draft)} onClick={() => void onSave()} data-testid={`exchange-${exchange.id}-save`}>
            {save.isPending ? 'Saving...' : 'Save Configuration'}
          </button>
          <button type="button" className="btn btn--primary" disabled={busy || !canTestConnection(exchange, draft)} onClick={() => void onTest()} data-testid={`exchange-${exchange.id}-test`}>
            {test.isPending ? 'Testing...' : 'Test Connection'}
          </button>
        </div>
        {exchange.testnetAvailable && (
          <label className="switch-field">
            <input
              type="checkbox"
              checked={exchange.mirrorToTestnet}
              disabled={mirror.isPending || (!exchange.mirrorToTestnet && !(exchange.status === 'connected' && exchange.testnet))}
              onChange={(e) => onMirror(e.target.checked)}
              data-testid={`exchange-${exchange.id}-mirror`}
            />
            Mirror to testnet
            <span className="field__hint">Each paper trade of your bot is also sent as a market order to this testnet; Trade History shows both fills side by side. Needs a connected testnet account.</span>
          </label>
        )}
      </div>
    </section>
  );
}
