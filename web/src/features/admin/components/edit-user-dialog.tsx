/**
 * The Edit dialog (spec section 2): Username, Email, First Name, Last Name, a Subscription select
 * (FREE, PREMIUM), a Status select (ACTIVE, INACTIVE, CANCELLED, EXPIRED), Cancel and Save Changes
 * ('Saving...' while busy). No client-side validation (section 5): the server's 400 detail is the
 * 'Error' toast. Success: 'Success - User updated successfully', the list refetched, the dialog closed.
 */
import { useId, useState, type FormEvent } from 'react';
import { subscriptionStatuses, subscriptionTiers, type SubscriptionStatus, type SubscriptionTier } from '@papertrade/domain/auth/contracts';
import type { AdminUser } from '@papertrade/domain/admin/contracts';
import { describeError } from '../../../lib/api-client';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useUpdateUser } from '../api/update-user';

export function EditUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const titleId = useId();
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
          onClose();
        },
        onError: (error) => toast({ title: 'Error', description: describeError(error, 'Failed to update user'), variant: 'destructive' }),
      },
    );
  };

  const field = (label: string, value: string, set: (v: string) => void, type = 'text') => (
    <label className="admin-dialog__field">
      <span>{label}</span>
      <input className="input" type={type} value={value} onChange={(e) => set(e.target.value)} />
    </label>
  );

  return (
    <div className="admin-dialog__backdrop" onClick={(e) => e.target === e.currentTarget && !update.isPending && onClose()}>
      {/* noValidate: the email input's type would have the browser refuse a bad address itself, and the spec shows no client-side validation. */}
      <form className="admin-dialog card" role="dialog" aria-modal="true" aria-labelledby={titleId} onSubmit={submit} noValidate data-testid="edit-user-dialog">
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
          <button type="button" className="btn btn--ghost" onClick={onClose} disabled={update.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </div>
  );
}
