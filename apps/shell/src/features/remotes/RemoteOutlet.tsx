// Renders the remote that owns the current path. A remote that fails to load or throws while
// rendering is contained in a panel with Retry; the shell and the other remotes keep working.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, LoadingState } from '@ejdesk/ui';
import { loadRemoteRoutes, reportLoadFailure } from './remote-registry.ts';
import styles from './remote.module.css';

function UnavailablePanel({ section, onRetry }: { section: string; onRetry: () => void }) {
  return (
    <div className={styles.panel} role="alert">
      <h2 className={styles.title}>This section is unavailable</h2>
      <p className={styles.text}>The {section} module could not be loaded. The rest of EJ Desk keeps working.</p>
      <Button variant="primary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

class RenderBoundary extends Component<{ remote: string; section: string; onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The ${this.props.section} section failed while rendering`, error, info.componentStack);
    reportLoadFailure(this.props.remote);
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <UnavailablePanel
        section={this.props.section}
        onRetry={() => {
          this.setState({ failed: false });
          this.props.onRetry();
        }}
      />
    );
  }
}

export function RemoteOutlet({ remote, section }: { remote: string; section: string }) {
  const routes = useQuery({
    queryKey: ['remote-routes', remote],
    queryFn: () => loadRemoteRoutes(remote),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
  if (routes.isPending || (routes.isError && routes.isFetching)) return <LoadingState />;
  if (routes.isError) return <UnavailablePanel section={section} onRetry={() => void routes.refetch()} />;
  const RemoteRoutes = routes.data;
  return (
    <RenderBoundary key={remote} remote={remote} section={section} onRetry={() => void routes.refetch()}>
      <RemoteRoutes />
    </RenderBoundary>
  );
}
