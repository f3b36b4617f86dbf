/**
 * The Edit dialog (spec section 2): Username, Email, First Name, Last Name, a Subscription select
 * (FREE, PREMIUM), a Status select (ACTIVE, INACTIVE, CANCELLED, EXPIRED), Cancel and Save Changes
 * ('Saving...' while busy). No client-side validation (section 5): the server's 400 detail is the
 * 'Error' toast. Success: 'Success - User updated successfully', the list refetched, the dialog closed.
 *
 * Keyboard: a native <dialog> opened with showModal, so the page behind it is inert (Tab and
 * Shift+Tab wrap inside: components/ui/dialog-focus.ts), focus starts on the first field, Escape cancels (not while saving), and
 * closing puts focus back on the Edit button that opened it (the browser restores it).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type SyntheticEvent } from 'react';
import { subscriptionStatuses, subscriptionTiers, type SubscriptionStatus, type SubscriptionTier } from '@papertrade/domain/auth/contracts';
import type { AdminUser } from '@papertrade/domain/admin/contracts';
import { describeError } from '../../../lib/api-client';
import { keepTabInside } from '../../../components/ui/dialog-focus';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useUpdateUser } from '../api/update-user';

export function EditUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const toast = useToast();
  const update = useUpdateUser();
  const [username, setUsername] = useState(user.username);
  const [email, setEmail] = useState(user.email);
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [tier, setTier] = useState<SubscriptionTier>(user.subscriptionTier);
  const [status, setStatus] = useState<SubscriptionStatus>(user.subscriptionStatus);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: user.id, changes: { username, email, firstName, lastName, subscriptionTier: tier, subscriptionStatus: status } },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: 'User updated successfully', variant: 'success' });
          close();
        },
        onError: (error) => toast({ title: 'Error', description: describeError(error, 'Failed to update user'), variant: 'destructive' }),
      },
    );
  };

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  // close() before the parent unmounts the dialog: closing is what gives focus back to the Edit
  // button (a dialog removed while open leaves focus nowhere).
  const close = () => {
    ref.current?.close();
    onClose();
  };

  // Escape asks the dialog to cancel: refused while a save is under way (its answer closes it).
  const cancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (!update.isPending) close();
  };

  const field = (label: string, value: string, set: (v: string) => void, type = 'text') => (
    <label className="admin-dialog__field">
      <span>{label}</span>
      <input className="input" type={type} value={value} onChange={(e) => set(e.target.value)} />
    </label>
  );

  return (
    <dialog
      ref={ref}
      className="admin-dialog card"
      aria-labelledby={titleId}
      data-testid="edit-user-dialog"
      onCancel={cancel}
      onKeyDown={keepTabInside}
      // A click on the backdrop lands on the dialog element itself (its box is the form's).
      onClick={(e) => e.target === e.currentTarget && !update.isPending && close()}
    >
      {/* noValidate: the email input's type would have the browser refuse a bad address itself, and the spec shows no client-side validation. */}
      <form className="admin-dialog__form" onSubmit={submit} noValidate>
        <h2 id={titleId}>Edit User</h2>
        {field('Username', username, setUsername)}
        {field('Email', email, setEmail, 'email')}
        {field('First Name', firstName, setFirstName)}
        {field('Last Name', lastName, setLastName)}
        <label className="admin-dialog__field">
          <span>Subscription</span>
          <select className="input" value={tier} onChange={(e) => setTier(e.target.value as SubscriptionTier)}>
            {subscriptionTiers.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-dialog__field">
          <span>Status</span>
          <select className="input" value={status} onChange={(e) => setStatus(e.target.value as SubscriptionStatus)}>
            {subscriptionStatuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <div className="admin-dialog__actions">
          <button type="button" className="btn btn--ghost" onClick={close} disabled={update.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
