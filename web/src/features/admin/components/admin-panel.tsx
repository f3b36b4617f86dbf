/**
 * The Admin Panel for admins and auditors (spec section 2): the four stat cards, then a tab bar with
 * Users (search, the user table, pages) and Audit. Auditors get the same reading view without any
 * action that changes something (the server refuses those to them anyway).
 *
 * The Audit tab opens on a user from that user's row (Audit), from a search by email or username, or
 * from a raw user id (audit-user-finder.tsx); what it shows for the user is the audit feature's,
 * composed by the route (`renderAudit`: features do not import each other).
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { AdminUser } from '@papertrade/domain/admin/contracts';
import { describeError } from '../../../lib/api-client';
import { formatCount } from '../../../lib/number-format';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useAdminStats } from '../api/get-admin-stats';
import { ADMIN_USERS_PAGE_SIZE, downloadAdminUsersCsv, useAdminUsers } from '../api/get-admin-users';
import { useSetAuditor } from '../api/set-auditor';
import { EditUserDialog } from './edit-user-dialog';
import { AuditUserFinder, auditTargetOf, type AuditTarget } from './audit-user-finder';
import '../../../components/ui/data-table.css';
import './admin.css';

/** How long typing must pause before the search is sent (one request per word, not per key). */
const SEARCH_DEBOUNCE_MS = 250;

type Tab = 'users' | 'audit';

/** `renderAudit` is the Audit tab's view of the chosen user, composed by the route (features do not import each other). */
export function AdminPanel({ canEdit, renderAudit }: { canEdit: boolean; renderAudit: (target: AuditTarget) => ReactNode }) {
  const [tab, setTab] = useState<Tab>('users');
  const [audited, setAudited] = useState<AuditTarget | null>(null);
  const openAudit = (target: AuditTarget) => {
    setAudited(target);
    setTab('audit');
  };
  return (
    <div className="admin-panel">
      <StatCards />
      <div className="admin-tabs" role="tablist" aria-label="Admin sections">
        {(
          [
            ['users', 'Users'],
            ['audit', 'Audit'],
          ] as const
        ).map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={`admin-tabs__tab${tab === id ? ' admin-tabs__tab--active' : ''}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      {tab === 'users' ? (
        <UsersTab canEdit={canEdit} onAudit={openAudit} />
      ) : (
        <section role="tabpanel" aria-label="Audit" data-testid="audit-tab-panel" className="admin-audit">
          <AuditUserFinder onChoose={openAudit} />
          {audited ? (
            renderAudit(audited)
          ) : (
            <p className="empty-text admin-audit__hint">Find a user by email or username, open one from the Users tab with Audit, or enter a user ID.</p>
          )}
        </section>
      )}
    </div>
  );
}

function StatCards() {
  const stats = useAdminStats(true);
  const cards = [
    ['Total Users', stats.data?.totalUsers],
    ['Premium Users', stats.data?.premiumUsers],
    ['Active Subscriptions', stats.data?.activeSubscriptions],
    ['New This Month', stats.data?.newThisMonth],
  ] as const;
  return (
    <div className="admin-stats" data-testid="admin-stats">
      {cards.map(([label, n]) => (
        <div key={label} className="admin-stats__card card" data-testid={`stat-${label.toLowerCase().replace(/ /g, '-')}`}>
          <span className="admin-stats__label">{label}</span>
          <strong className="admin-stats__value">{formatCount(n)}</strong>
        </div>
      ))}
    </div>
  );
}

function UsersTab({ canEdit, onAudit }: { canEdit: boolean; onAudit: (target: AuditTarget) => void }) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [csvError, setCsvError] = useState<string | null>(null);
  const users = useAdminUsers({ q, page }, true);

  /** Every user matching the search, as the server writes the CSV. */
  async function downloadCsv() {
    setDownloading(true);
    try {
      await downloadAdminUsersCsv(q);
      setCsvError(null);
    } catch (error) {
      setCsvError(describeError(error, 'Failed to download the users'));
    } finally {
      setDownloading(false);
    }
  }

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(typed);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE));
  const list = users.data?.users ?? [];

  return (
    <section role="tabpanel" aria-label="Users" className="admin-users card">
      <div className="admin-users__toolbar">
        <input
          className="input admin-users__search"
          type="search"
          placeholder="Search by email, username or name"
          aria-label="Search users"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <span className="admin-users__count" data-testid="admin-users-total">
          {users.data ? `${formatCount(total)} users` : ''}
        </span>
        <button type="button" className="btn btn--sm" disabled={downloading} onClick={() => void downloadCsv()} data-testid="admin-users-csv">
          Download CSV
        </button>
      </div>
      {csvError && (
        <p className="admin-users__error" role="alert">
          {csvError}
        </p>
      )}
      {users.isError && <p className="admin-users__error">{describeError(users.error, 'Failed to load users')}</p>}
      <table className="admin-table" data-testid="admin-users-table">
        <thead>
          <tr>
            <th>User</th>
            <th>Email</th>
            <th>Subscription</th>
            <th>Status</th>
            <th>Created</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.data && list.length === 0 && (
            <tr>
              <td colSpan={6} className="admin-table__empty">
                No users found
              </td>
            </tr>
          )}
          {list.map((user) => (
            <UserRow key={user.id} user={user} canEdit={canEdit} onEdit={() => setEditing(user)} onAudit={() => onAudit(auditTargetOf(user))} />
          ))}
        </tbody>
      </table>
      <nav className="admin-users__pages" aria-label="Pages">
        <button type="button" className="btn btn--sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          Previous
        </button>
        <span data-testid="admin-users-page">
          Page {Math.min(page, pages)} of {pages}
        </span>
        <button type="button" className="btn btn--sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          Next
        </button>
      </nav>
      {editing && canEdit && <EditUserDialog user={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

function UserRow({ user, canEdit, onEdit, onAudit }: { user: AdminUser; canEdit: boolean; onEdit: () => void; onAudit: () => void }) {
  const toast = useToast();
  const setAuditor = useSetAuditor();
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const toggleAuditor = () =>
    setAuditor.mutate(
      { id: user.id, auditor: !user.isAuditor },
      {
        onSuccess: (res) => toast({ title: 'Success', description: res.isAuditor ? 'Auditor role granted' : 'Auditor role revoked', variant: 'success' }),
        onError: (error) => toast({ title: 'Error', description: describeError(error, 'Failed to change the auditor role'), variant: 'destructive' }),
      },
    );
  return (
    <tr data-testid="admin-user-row" data-user-id={user.id}>
      <td>
        <div className="admin-table__user">
          <span className="admin-table__username">{user.username}</span>
          {fullName && <span className="admin-table__name">{fullName}</span>}
          <span className="admin-table__roles">
            {user.isAdmin && <span className="badge badge--accent">Admin</span>}
            {user.isAuditor && <span className="badge">Auditor</span>}
          </span>
        </div>
      </td>
      <td>{user.email}</td>
      <td>
        <span className={user.subscriptionTier === 'PREMIUM' ? 'badge badge--premium' : 'badge'}>{user.subscriptionTier}</span>
      </td>
      <td>
        <span className={user.subscriptionStatus === 'ACTIVE' ? 'badge badge--up' : 'badge'}>{user.subscriptionStatus}</span>
      </td>
      <td>{new Date(user.createdAt).toLocaleDateString('en-US')}</td>
      <td>
        <div className="admin-table__actions">
          {canEdit && (
            <>
              <button type="button" className="btn btn--sm" onClick={onEdit}>
                Edit
              </button>
              <button type="button" className="btn btn--sm btn--ghost" onClick={toggleAuditor} disabled={setAuditor.isPending}>
                {user.isAuditor ? 'Revoke Auditor' : 'Make Auditor'}
              </button>
            </>
          )}
          {/* Reading a user's history changes nothing: auditors have it too. */}
          <button type="button" className="btn btn--sm btn--ghost" onClick={onAudit}>
            Audit
          </button>
        </div>
      </td>
    </tr>
  );
}
