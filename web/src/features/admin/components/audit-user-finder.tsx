/**
 * Choosing whom the Audit tab shows, for admins and auditors: a search by email or username (the
 * admin users list, GET /api/admin/users?q=, which matches a prefix of either on the server), each
 * match with an Audit button, and the raw user id for an auditor who has one (from a stream name or
 * a log line). The Users tab's rows open the audit too (admin-panel.tsx).
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { AdminUser } from '@papertrade/domain/admin/contracts';
import { Panel } from '../../../components/ui/panel';
import { describeError } from '../../../lib/api-client';
import { ADMIN_USERS_PAGE_SIZE, useAdminUsers } from '../api/get-admin-users';

/** Whom to audit: the id, and the names when they are known (not for a raw id). */
export interface AuditTarget {
  id: string;
  username?: string;
  email?: string;
}

export const auditTargetOf = (user: Pick<AdminUser, 'id' | 'username' | 'email'>): AuditTarget => ({ id: user.id, username: user.username, email: user.email });

/** How long typing must pause before the search is sent (as the Users tab's search). */
const SEARCH_DEBOUNCE_MS = 250;

export function AuditUserFinder({ onChoose }: { onChoose: (target: AuditTarget) => void }) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [rawId, setRawId] = useState('');
  const matches = useAdminUsers({ q, page: 1 }, q.trim() !== '');

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const chooseRawId = (e: FormEvent) => {
    e.preventDefault();
    if (rawId.trim() !== '') onChoose({ id: rawId.trim() });
  };

  const list = matches.data?.users ?? [];
  const total = matches.data?.total ?? 0;

  return (
    <Panel title="Choose a user to audit" testId="audit-user-finder" className="audit-finder">
      <div className="audit-finder__row">
        <input
          className="input audit-finder__search"
          type="search"
          placeholder="Email or username"
          aria-label="Find a user by email or username"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <form className="audit-finder__raw" onSubmit={chooseRawId}>
          <label className="field__label" htmlFor="audit-user">
            User ID
          </label>
          <input id="audit-user" className="input audit-finder__id" value={rawId} onChange={(e) => setRawId(e.target.value)} placeholder="the user's id" spellCheck={false} />
          <button type="submit" className="btn btn--sm" disabled={rawId.trim() === ''}>
            Show history
          </button>
        </form>
      </div>
      {matches.isError && (
        <p className="admin-users__error" role="alert">
          {describeError(matches.error, 'Failed to search the users')}
        </p>
      )}
      {q.trim() !== '' && matches.data && (
        <>
          <div className="table-scroll">
            <table className="data-table" aria-label="Matching users">
              <thead>
                <tr>
                  <th>User</th>
                  <th>Email</th>
                  <th>Subscription</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {list.length === 0 && (
                  <tr>
                    <td colSpan={4} className="admin-table__empty">
                      No users found
                    </td>
                  </tr>
                )}
                {list.map((user) => (
                  <tr key={user.id} data-testid="audit-match" data-user-id={user.id}>
                    <td className="admin-table__username">{user.username}</td>
                    <td>{user.email}</td>
                    <td>
                      <span className={user.subscriptionTier === 'PREMIUM' ? 'badge badge--premium' : 'badge'}>{user.subscriptionTier}</span>
                    </td>
                    <td className="audit-finder__action">
                      <button type="button" className="btn btn--sm" onClick={() => onChoose(auditTargetOf(user))}>
                        Audit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {total > list.length && <p className="field__hint">{`The first ${ADMIN_USERS_PAGE_SIZE} of ${total.toLocaleString('en-US')} matches: type more of the email or username to narrow them.`}</p>}
        </>
      )}
    </Panel>
  );
}
