import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { logOut, useSession, watchLiveEvents, type MailStall } from '@ejdesk/api-client';
import { changedSection, navigationFor, screenPath } from '../remotes/index.ts';
import styles from './layout.module.css';

/**
 * The live events, one stream per tab while signed in: each mail event refetches the queries the
 * screens marked live (dashboard counts, the lists' Total Records, Mail Flow); the stall feeds the
 * banner every user sees.
 */
function useLiveEvents(): { stall: MailStall | null; newRelease: string | null } {
  const queryClient = useQueryClient();
  const signedIn = useSession((s) => s.isAuthenticated);
  const [stall, setStall] = useState<MailStall | null>(null);
  // The section with a new release for this operator: said, never reloaded by itself (a form may be half filled).
  const [newRelease, setNewRelease] = useState<string | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    return watchLiveEvents({
      onMail: () => void queryClient.invalidateQueries({ predicate: (query) => query.meta?.live === true }),
      onStall: setStall,
      onRelease: (remote) =>
        void changedSection(remote)
          .then((section) => section && setNewRelease(section))
          .catch((error: unknown) => console.warn('Could not read the remotes configuration again', error)),
    });
  }, [queryClient, signedIn]);
  return signedIn ? { stall, newRelease } : { stall: null, newRelease: null };
}

export function Layout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { stall, newRelease } = useLiveEvents();
  const role = useSession((s) => s.role);
  // The entries the user's role opens (the API refuses the rest anyway).
  const entries = navigationFor(role);
  const mailFlow = screenPath('mail flow');
  const { pathname } = useLocation();
  // Below 1,100 px the side nav folds into a menu button (layout.module.css); it closes again on
  // navigation (it is open only on the path it was opened on) and on Escape.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOn(null);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);
  return (
    <div className={styles.layout}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <aside className={menuOpen ? `${styles.sidebar} ${styles.open}` : styles.sidebar}>
        <div className={styles.brand}>EJ Desk</div>
        <button
          type="button"
          className={styles.menuButton}
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setOpenOn(menuOpen ? null : pathname)}
        >
          Menu
        </button>
        <nav aria-label="Main" id="main-nav">
          <ul className={styles.list}>
            {entries.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={({ isActive }) => (isActive ? `${styles.link} ${styles.active}` : styles.link)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/change-password" className={({ isActive }) => (isActive ? `${styles.link} ${styles.active}` : styles.link)}>
                Change Password
              </NavLink>
            </li>
            <li>
              <button
                type="button"
                className={styles.link}
                onClick={() => {
                  const providerLogout = logOut();
                  // Nothing of this operator's (lists, their column choices) is shown to the next one.
                  queryClient.clear();
                  navigate('/login');
                  // A single sign-on session ends at the provider too, which then shows /login again.
                  void providerLogout.then((url) => url && window.location.assign(url));
                }}
              >
                Logout
              </button>
            </li>
          </ul>
        </nav>
      </aside>
      <main id="main" className={styles.main} tabIndex={-1}>
        {stall?.stalled && (
          <div className={styles.stalled} role="alert">
            <strong>Mail is not flowing.</strong> {stall.reasons.join(' ')} {mailFlow && <Link to={mailFlow}>Open Mail Flow</Link>}
          </div>
        )}
        {newRelease && (
          <div className={styles.release} role="status">
            A new version of {newRelease} is available —{' '}
            <button type="button" className={styles.reload} onClick={() => window.location.reload()}>
              Reload
            </button>
          </div>
        )}
        <Outlet />
      </main>
    </div>
  );
}
