/**
 * Bot Settings: the risk profile's bot view (issue 17): max position size, stop loss, take profit,
 * daily loss limit, notifications and auto-retrain, saved together (POST /api/settings/bot), so the
 * bot and the Risk Management screen follow at once. The current values come from GET /api/risk
 * (the route passes them). 'Settings Saved', or the failure with the server's reason.
 */
import { useState } from 'react';
import { botSettingsBounds, type BotSettingsView, type NumberBounds } from '@papertrade/domain/trading/contracts';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useSaveBotSettings } from '../api/save-bot-settings';
import { SETTINGS_SAVED, saveFailedToast } from '../settings-toasts';

type NumberField = 'maxPositionSize' | 'stopLoss' | 'takeProfit' | 'dailyLossLimit';
const fields: ReadonlyArray<{ name: NumberField; label: string; bounds: NumberBounds }> = [
  { name: 'maxPositionSize', label: 'Max Position Size (%)', bounds: botSettingsBounds.maxPositionSize },
  { name: 'stopLoss', label: 'Stop Loss (%)', bounds: botSettingsBounds.stopLossPercent },
  { name: 'takeProfit', label: 'Take Profit (%)', bounds: botSettingsBounds.takeProfitPercent },
  { name: 'dailyLossLimit', label: 'Daily Loss Limit ($)', bounds: botSettingsBounds.dailyLossLimit },
];

export function BotSettingsTab({ settings, onSaved }: { settings: BotSettingsView | undefined; onSaved: () => void }) {
  const toast = useToast();
  const save = useSaveBotSettings({ onSaved });
  const [drafts, setDrafts] = useState<Partial<Record<NumberField, string>>>({});
  const [switches, setSwitches] = useState<{ enableNotifications?: boolean; autoRetrain?: boolean }>({});
  if (!settings) return <p className="empty-text">Loading…</p>;
  const unit = settings.stopLossType === 'atr' || settings.stopLossType === 'volatility' ? ' (k)' : '';
  const text = (name: NumberField) => drafts[name] ?? String(settings[name]);
  const enableNotifications = switches.enableNotifications ?? settings.enableNotifications;
  const autoRetrain = switches.autoRetrain ?? settings.autoRetrain;

  function onSave() {
    const body: Record<string, number | boolean> = { enableNotifications, autoRetrain };
    for (const { name } of fields) {
      const value = Number(text(name));
      // The server checks the bounds and answers which field is out of them; an empty field is not sent.
      if (text(name).trim() !== '') body[name] = value;
    }
    save.mutate(body, {
      onSuccess: () => {
        setDrafts({});
        setSwitches({});
        toast(SETTINGS_SAVED);
      },
      onError: (error) => toast(saveFailedToast('settings', error)),
    });
  }

  return (
    <Panel title="Bot Settings" testId="bot-settings">
      <div className="settings-grid">
        {fields.map(({ name, label, bounds }) => (
          <div className="field" key={name}>
            <label className="field__label" htmlFor={`bot-${name}`}>
              {name === 'stopLoss' || name === 'takeProfit' ? label.replace(' (%)', unit || ' (%)') : label}
            </label>
            <input
              id={`bot-${name}`}
              className="input"
              type="number"
              inputMode="decimal"
              min={bounds.min}
              max={bounds.max}
              step={bounds.step}
              value={text(name)}
              onChange={(e) => setDrafts((d) => ({ ...d, [name]: e.target.value }))}
              data-testid={`bot-${name}`}
            />
            <span className="field__hint">
              {bounds.min} to {bounds.max}
            </span>
          </div>
        ))}
        <label className="switch-field">
          <input type="checkbox" checked={enableNotifications} onChange={(e) => setSwitches((s) => ({ ...s, enableNotifications: e.target.checked }))} data-testid="bot-enableNotifications" />
          Enable Notifications
          <span className="field__hint">Toasts for your bot&apos;s trades and status (which ones: the Notifications tab).</span>
        </label>
        <label className="switch-field">
          <input type="checkbox" checked={autoRetrain} onChange={(e) => setSwitches((s) => ({ ...s, autoRetrain: e.target.checked }))} data-testid="bot-autoRetrain" />
          Auto-Retrain (daily)
          <span className="field__hint">Kept with your risk profile: your model is retrained daily by the model trainer once it runs for your account.</span>
        </label>
      </div>
      <p className="field__hint">These are your one risk profile: the bot and the Risk Management screen use the same values.</p>
      <div className="button-row">
        <button type="button" className="btn btn--primary" disabled={save.isPending} onClick={onSave} data-testid="bot-settings-save">
          {save.isPending ? 'Saving...' : 'Save Settings'}
        </button>
      </div>
    </Panel>
  );
}
