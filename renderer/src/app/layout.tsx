import { NavLink, Outlet } from 'react-router-dom';
import { useAccount } from '../lib/account-query';
import { StatusBadge } from '../features/status/components/status-badge';
import { gatewayUrl } from '../lib/gateway-client';
import { useSessionStore } from '../lib/session-store';
import { useThemeStore } from '../lib/theme-store';
import { navGroupsFor } from './nav-items';

export function Layout() {
  const account = useAccount();
  const source = useSessionStore((s) => s.source);
  const signOut = useSessionStore((s) => s.signOut);
  const { theme, toggle } = useThemeStore();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {/* aria-busy until the key's role is known: e2e waits for the final nav. */}
      <nav className="sidebar" aria-label="Main" aria-busy={account.isPending}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            S
          </span>
          Switchyard
        </div>
        {navGroupsFor(account.isPending ? 'loading' : account.data?.api_key.role).map((group) => (
          <div key={group.label} role="group" aria-label={group.label}>
            <div className="nav-group-label" aria-hidden="true">
              {group.label}
            </div>
            {group.items.map((item) =>
              item.placeholder ? (
                <span
                  key={item.path}
                  className="nav-link nav-placeholder"
                  aria-hidden="true"
                  data-testid="nav-placeholder"
                >
                  {/* A no-break space: the placeholder is as tall as a link, so nothing jumps when the role arrives. */}
                  <span className="nav-icon">{'\u00a0'}</span>
                  <span className="nav-placeholder-bar" />
                </span>
              ) : (
                <NavLink key={item.path} to={item.path} className="nav-link">
                  <span className="nav-icon" aria-hidden="true">
                    {item.icon}
                  </span>
                  {item.label}
                </NavLink>
              ),
            )}
          </div>
        ))}
        <div role="group" aria-label="Reference">
          <div className="nav-group-label" aria-hidden="true">
            Reference
          </div>
          <a className="nav-link" href={gatewayUrl('/docs')} target="_blank" rel="noreferrer">
            <span className="nav-icon" aria-hidden="true">
              ↗
            </span>
            API reference
          </a>
          {/* /metrics needs an Owner key (or the metrics token): read here with the console's key, not opened as a bare link. */}
          {!account.isPending && account.data?.api_key.role !== 'member' && (
            <NavLink to="/metrics" className="nav-link">
              <span className="nav-icon" aria-hidden="true">
                ≋
              </span>
              Metrics
            </NavLink>
          )}
        </div>
      </nav>
      <header className="header">
        <StatusBadge />
        <span className="header-spacer" />
        {account.data && (
          <span
            className="badge badge-accent"
            title={account.data.api_key.name ?? 'Active API key'}
            data-testid="key-prefix"
          >
            <span aria-hidden="true">⚷</span>
            <span className="mono">{account.data.api_key.prefix}</span>
            {account.data.api_key.role && <span>· {account.data.api_key.role}</span>}
          </span>
        )}
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={toggle}
          aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
        >
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
        {source === 'web' && (
          <button type="button" className="btn btn-sm" onClick={() => signOut()}>
            Sign out
          </button>
        )}
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
