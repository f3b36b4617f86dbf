/**
 * Notifications: which events reach you as toasts (saved per user, POST /api/settings/notifications,
 * on each switch). The app's notification toasts read the same switches (app/notification-toasts.tsx).
 */
import { NOTIFICATION_LABELS, notificationKinds } from '@papertrade/domain/settings/contracts';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useAccountSettings } from '../api/get-account-settings';
import { useSaveNotificationSettings } from '../api/save-notification-settings';
import { SETTINGS_SAVED, saveFailedToast } from '../settings-toasts';

export function NotificationsTab() {
  const settings = useAccountSettings({ enabled: true });
  const save = useSaveNotificationSettings();
  const toast = useToast();
  const current = settings.data?.notifications;
  return (
    <Panel title="Notifications" testId="notifications-settings">
      {!current ? (
        <p className="empty-text">Loading…</p>
      ) : (
        <div className="settings-grid">
          {notificationKinds.map((kind) => (
            <label className="switch-field" key={kind}>
              <input
                type="checkbox"
                checked={current[kind]}
                disabled={save.isPending}
                onChange={(e) => save.mutate({ [kind]: e.target.checked }, { onSuccess: () => toast(SETTINGS_SAVED), onError: (error) => toast(saveFailedToast('settings', error)) })}
                data-testid={`notify-${kind}`}
              />
              {NOTIFICATION_LABELS[kind].label}
              <span className="field__hint">{NOTIFICATION_LABELS[kind].description}</span>
            </label>
          ))}
        </div>
      )}
      <p className="field__hint">Shown in this app only; nothing is sent by e-mail or elsewhere.</p>
    </Panel>
  );
}
