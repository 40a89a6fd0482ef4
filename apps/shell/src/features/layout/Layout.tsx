import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { endSession } from '@ejdesk/api-client';
import { sideNavigation } from '../../app/route-table.ts';
import styles from './layout.module.css';

export function Layout() {
  const navigate = useNavigate();
  return (
    <div className={styles.layout}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <aside className={styles.sidebar}>
        <div className={styles.brand}>EJ Desk</div>
        <nav aria-label="Main">
          <ul className={styles.list}>
            {sideNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={({ isActive }) => (isActive ? `${styles.link} ${styles.active}` : styles.link)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button
                type="button"
                className={styles.link}
                onClick={() => {
                  endSession();
                  navigate('/login');
                }}
              >
                Logout
              </button>
            </li>
          </ul>
        </nav>
      </aside>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
