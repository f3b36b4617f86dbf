/**
 * /admin (spec section 2): 'Access Restricted - This panel is only accessible to administrators.' for
 * everyone but admins and auditors (the queries are not even sent); auditors see the panel read-only.
 */
import { PageHeader } from '../../components/layouts/page-header';
import { Icon } from '../../components/ui/icon';
import { useAuth } from '../../lib/auth/auth-context';
import { AdminPanel } from '../../features/admin/components/admin-panel';
import { AuditTab } from '../../features/audit/components/audit-tab';
import '../../features/audit/components/audit-styles';
import './screens.css';

export default function AdminRoute() {
  const { user, isAdmin } = useAuth();
  const isAuditor = user?.isAuditor === true;
  return (
    <>
      <title>Admin Panel · AI Trading Assistant</title>
      <PageHeader title="Admin Panel" subtitle={isAdmin ? 'Manage users and subscriptions' : isAuditor ? 'Read-only access (auditor)' : undefined} />
      {isAdmin || isAuditor ? (
        // Keyed by the user: another user starts on the first page, as of now.
        <AdminPanel canEdit={isAdmin} renderAudit={(target) => <AuditTab key={target.id} user={target} />} />
      ) : (
        <section className="screen-empty card" data-testid="admin-access-restricted">
          <span className="screen-empty__icon">
            <Icon name="admin" size={26} />
          </span>
          <h2>Access Restricted</h2>
          <p>This panel is only accessible to administrators.</p>
        </section>
      )}
    </>
  );
}
