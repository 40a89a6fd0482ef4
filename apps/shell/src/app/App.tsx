import { useEffect, useMemo, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import {
  changeView,
  chooseDefaultView,
  configureApiClient,
  createView,
  deleteView,
  failureReason,
  forgetPreference,
  getPreference,
  getViews,
  retryOnceUnlessNotFound,
  savePreference,
  useSession,
} from '@ejdesk/api-client';
import { Card, Page, PreferenceStoreProvider, Toaster, ViewStoreProvider, type PreferenceStore, type ViewStore } from '@ejdesk/ui';
import { ChangePasswordPage } from '../features/auth/ChangePasswordPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RequireAuth } from '../features/auth/RequireAuth.tsx';
import { Layout } from '../features/layout/Layout.tsx';
import { RemoteOutlet } from '../features/remotes/RemoteOutlet.tsx';
import { navigationFor, ownerOf, registryFailure } from '../features/remotes/remote-registry.ts';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: retryOnceUnlessNotFound, refetchOnWindowFocus: false, staleTime: 15_000 } },
});

/** The operator's console choices (a table's columns) are kept by the API, per operator. */
const preferences: PreferenceStore = { load: getPreference, save: savePreference, forget: forgetPreference };

/** The lists' saved views are kept by the API too; only an admin may share one. */
function ViewStoreBridge({ children }: { children: ReactNode }) {
  const role = useSession((s) => s.role);
  const store = useMemo<ViewStore>(
    () => ({
      load: getViews,
      create: createView,
      change: changeView,
      remove: deleteView,
      chooseDefault: chooseDefaultView,
      canShare: role === 'admin',
      describe: (error) => `The view could not be kept: ${failureReason(error)}.`,
    }),
    [role],
  );
  return <ViewStoreProvider value={store}>{children}</ViewStoreProvider>;
}

/** Connects the shared API client to the router: a session that cannot be refreshed goes to /login. */
function ApiClientBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    configureApiClient({
      onUnauthorized: () => navigate('/login', { replace: true, state: { from: location } }),
    });
  }, [navigate, location]);
  return null;
}

/** Picks the remote that owns the first path segment (remotes.json says which); unknown paths go to /login, as in the original. */
function RemoteSwitch() {
  const { pathname } = useLocation();
  const role = useSession((s) => s.role);
  const owner = ownerOf(pathname);
  if (!owner) return registryFailure() ? <NoRegistry /> : <Navigate to="/login" replace />;
  if (owner.role && owner.role !== role) return <NotAllowed section={owner.section} />;
  return <RemoteOutlet remote={owner.name} section={owner.section} />;
}

/** '/' signed in (the end of a login): the first screen of the side nav the user may open; signed out, /login. */
function Home() {
  const role = useSession((s) => s.role);
  const first = navigationFor(role)[0];
  if (!first) return registryFailure() ? <NoRegistry /> : <Navigate to="/change-password" replace />;
  return <Navigate to={first.to} replace />;
}

/** remotes.json could not be read: the shell works, no section can load until a reload. */
function NoRegistry() {
  return (
    <Page title="Unavailable">
      <div className="ej-state ej-state--error" role="alert">
        The console could not read which sections exist ({registryFailure()}). Reload the page to try again.
      </div>
    </Page>
  );
}

/** A page the user's role does not open (a typed or old link): said plainly, the session kept. */
function NotAllowed({ section }: { section: string }) {
  return (
    <Page title="Not available">
      <Card>
        <p className="ej-state">The {section} are for admins. Ask an admin of EJ Desk if you need them.</p>
      </Card>
    </Page>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferenceStoreProvider value={preferences}>
        <ViewStoreBridge>
          <BrowserRouter>
            <ApiClientBridge />
            <Routes>
              <Route
                path="/"
                element={
                  <RequireAuth>
                    <Home />
                  </RequireAuth>
                }
              />
              <Route path="/login" element={<LoginPage />} />
              <Route
                element={
                  <RequireAuth>
                    <Layout />
                  </RequireAuth>
                }
              >
                <Route path="/change-password" element={<ChangePasswordPage />} />
                <Route path="*" element={<RemoteSwitch />} />
              </Route>
            </Routes>
          </BrowserRouter>
        </ViewStoreBridge>
      </PreferenceStoreProvider>
      <Toaster />
    </QueryClientProvider>
  );
}
