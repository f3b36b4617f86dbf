/**
 * Trading Settings (the API Integration screen's tab, and part of Settings' API Configuration): paper
 * trading on and real trading off by default. Turning real trading on asks for an explicit
 * confirmation in a dialog (a native modal <dialog>: Cancel focused, Tab stays inside, Escape cancels)
 * and says plainly that this version places no real-money order. Saved at once (POST /api/settings/api).
 */
import { useEffect, useRef, useState } from 'react';
import { keepTabInside } from '../../../components/ui/dialog-focus';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useAccountSettings } from '../api/get-account-settings';
import { useSaveApiSettings } from '../api/save-api-settings';
import { API_SETTINGS_SAVED, saveFailedToast } from '../settings-toasts';
import './settings.css';

export function TradingSettingsPanel() {
  const settings = useAccountSettings({ enabled: true });
  const save = useSaveApiSettings();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const realSwitch = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (confirming && !d.open) {
      d.showModal();
      cancel.current?.focus();
    } else if (!confirming && d.open) d.close();
  }, [confirming]);

  const mode = settings.data?.tradingMode;
  function send(body: { enablePaperTrading?: boolean; enableRealTrading?: boolean; confirmRealTrading?: boolean }) {
    save.mutate(body, { onSuccess: () => toast(API_SETTINGS_SAVED), onError: (error) => toast(saveFailedToast('API settings', error)) });
  }
  const close = (then?: () => void) => {
    dialog.current?.close();
    setConfirming(false);
    realSwitch.current?.focus();
    then?.();
  };

  return (
    <Panel title="Trading Settings" testId="trading-settings">
      {!mode ? (
        <p className="empty-text">Loading…</p>
      ) : (
        <div className="settings-grid">
          <label className="switch-field">
            <input type="checkbox" checked={mode.paperTrading} disabled={save.isPending} onChange={(e) => send({ enablePaperTrading: e.target.checked })} data-testid="paper-trading-switch" />
            Paper Trading
            <span className="field__hint">Simulated trades with your paper portfolio (on by default).</span>
          </label>
          <label className="switch-field">
            <input
              ref={realSwitch}
              type="checkbox"
              checked={mode.realTrading}
              disabled={save.isPending}
              onChange={(e) => (e.target.checked ? setConfirming(true) : send({ enableRealTrading: false }))}
              data-testid="real-trading-switch"
            />
            Real Trading
            <span className="field__hint" data-testid="real-trading-note">
              Off by default. This version places no real-money order: the switch is recorded, and exchange orders go only to testnets (Mirror to testnet).
            </span>
          </label>
        </div>
      )}
      <dialog
        ref={dialog}
        className="settings-dialog"
        role="alertdialog"
        aria-labelledby="real-trading-title"
        aria-describedby="real-trading-text"
        data-testid="real-trading-dialog"
        onKeyDown={keepTabInside}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        {confirming && (
          <>
            <h2 id="real-trading-title" className="trade-dialog__title">
              Turn on real trading?
            </h2>
            <p id="real-trading-text" className="trade-dialog__text">
              Real trading would use real money on a live exchange account. This version still places no real-money order; turning it on records your choice.
            </p>
            <div className="button-row trade-dialog__actions">
              <button ref={cancel} type="button" className="btn" onClick={() => close()} data-testid="real-trading-cancel">
                Cancel
              </button>
              <button type="button" className="btn btn--primary" onClick={() => close(() => send({ enableRealTrading: true, confirmRealTrading: true }))} data-testid="real-trading-confirm">
                Turn on real trading
              </button>
            </div>
          </>
        )}
      </dialog>
    </Panel>
  );
}
