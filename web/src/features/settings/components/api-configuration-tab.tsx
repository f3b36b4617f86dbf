/**
 * API Configuration: the spec's API settings form (Binance and Coinbase keys, paper and real trading),
 * saved with POST /api/settings/api; keys are stored encrypted as the exchange connections of the API
 * Integration screen (testnet on), and the fields empty again after a save (a key is never sent back:
 * the saved ones show as their last four characters there). 'API Settings Saved', or the failure with
 * the server's reason. Premium: free users see the upgrade prompt (the route decides).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useSaveApiSettings } from '../api/save-api-settings';
import { API_SETTINGS_SAVED, saveFailedToast } from '../settings-toasts';
import { TradingSettingsPanel } from './trading-settings-panel';

const EMPTY = { binanceKey: '', binanceSecret: '', coinbaseKey: '', coinbaseSecret: '', coinbasePassphrase: '' };
type KeyField = keyof typeof EMPTY;
const keyFields: ReadonlyArray<{ name: KeyField; label: string; secret: boolean }> = [
  { name: 'binanceKey', label: 'Binance API Key', secret: false },
  { name: 'binanceSecret', label: 'Binance Secret Key', secret: true },
  { name: 'coinbaseKey', label: 'Coinbase API Key', secret: false },
  { name: 'coinbaseSecret', label: 'Coinbase Secret Key', secret: true },
  { name: 'coinbasePassphrase', label: 'Coinbase Passphrase', secret: true },
];

export function ApiConfigurationTab({ onSaved }: { onSaved: () => void }) {
  const toast = useToast();
  const save = useSaveApiSettings({ onSaved });
  const [keys, setKeys] = useState(EMPTY);
  const anyTyped = Object.values(keys).some((v) => v.trim() !== '');

  function onSave() {
    save.mutate(
      Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, v.trim()])),
      {
        onSuccess: (answer) => {
          setKeys(EMPTY);
          toast({ ...API_SETTINGS_SAVED, description: answer.exchanges.length > 0 ? `Saved keys ending ${answer.exchanges.map((e) => `${e.keyLast4} (${e.exchangeId})`).join(', ')}` : API_SETTINGS_SAVED.description });
        },
        onError: (error) => toast(saveFailedToast('API settings', error)),
      },
    );
  }

  return (
    <div className="settings-stack">
      <Panel title="API Configuration" testId="api-configuration">
        <p className="field__hint">Keys are stored encrypted and never shown again; testnet is used where the exchange has one. Manage each connection on the <Link to="/api-integration">API Integration</Link> screen.</p>
        <div className="settings-grid">
          {keyFields.map(({ name, label, secret }) => (
            <div className="field" key={name}>
              <label className="field__label" htmlFor={`api-${name}`}>
                {label}
              </label>
              <input
                id={`api-${name}`}
                className="input"
                type={secret ? 'password' : 'text'}
                autoComplete="off"
                spellCheck={false}
                value={keys[name]}
                onChange={(e) => setKeys((k) => ({ ...k, [name]: e.target.value }))}
                data-testid={`api-${name}`}
              />
            </div>
          ))}
        </div>
        <div className="button-row">
          <button type="button" className="btn btn--primary" disabled={save.isPending || !anyTyped} onClick={onSave} data-testid="api-settings-save">
            {save.isPending ? 'Saving...' : 'Save API Settings'}
          </button>
        </div>
      </Panel>
      <TradingSettingsPanel />
    </div>
  );
}
