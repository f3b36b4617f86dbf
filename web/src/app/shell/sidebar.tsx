import { Link, NavLink, useLocation } from 'react-router-dom';
import type { Me } from '@papertrade/domain/auth/contracts';
import { BrandMark } from '../../components/ui/brand-mark';
import { Icon } from '../../components/ui/icon';
import { useAuth } from '../../lib/auth/auth-context';
import { useLogout } from '../../lib/auth/logout';
import { PortfolioSummary } from '../../features/portfolio/components/portfolio-summary';
import { visibleNavEntries } from './navigation';

function UserBlock({ user }: { user: Me }) {
  const logout = useLogout();
  const name = user.firstName?.trim() || user.username;
  return (
    <div className="user-block" data-testid="user-block">
      <span className="user-block__avatar" aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </span>
      <div className="user-block__who">
        <span className="user-block__name" data-testid="user-name">
          {name}
        </span>
        <span className={`user-block__tier${user.subscriptionTier === 'PREMIUM' ? ' user-block__tier--premium' : ''}`} data-testid="user-tier">
          {user.subscriptionTier}
        </span>
      </div>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
        <Icon name="logout" size={16} />
        Logout
      </button>
    </div>
  );
}

function VisitorActions() {
  return (
    <div className="visitor-actions" data-testid="visitor-actions">
      <Link to="/login" className="btn btn--block">
        <Icon name="login" size={16} />
        Login
      </Link>
      <Link to="/signup" className="btn btn--primary btn--block">
        Signup
      </Link>
    </div>
  );
}

export function Sidebar({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { user, isAdmin } = useAuth();
  const { pathname } = useLocation();
  // Auditors see the Admin Panel too (read-only): the entry is for whoever may read it.
  const entries = visibleNavEntries({ isLoggedIn: user !== null, isAdmin: isAdmin || user?.isAuditor === true });

  return (
    <aside className={`sidebar${open ? ' sidebar--open' : ''}`} id="app-sidebar" aria-label="Sidebar">
      <div className="sidebar__header">
        <BrandMark size={32} />
        <span className="sidebar__title">AI Trading Assistant</span>
      </div>
      <nav className="sidebar__nav" aria-label="Main navigation">
        <ul>
          {entries.map((entry) => (
            <li key={entry.to}>
              <NavLink
                to={entry.to}
                end
                onClick={onNavigate}
                className={({ isActive }) =>
                  `sidebar__link${isActive || (entry.to === '/' && pathname === '/dashboard') ? ' sidebar__link--active' : ''}`
                }
              >
                <Icon name={entry.icon} size={18} />
                <span className="sidebar__label">{entry.label}</span>
                {entry.showPremiumBadge && <span className="badge badge--premium">Premium</span>}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar__bottom">
        <PortfolioSummary />
        {user ? <UserBlock user={user} /> : <VisitorActions />}
      </div>
    </aside>
  );
}
