// For the remotes' own tests: one of a remote's screens rendered as the shell would host it (a
// query client, a router at the path), without the shell.
import type { ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';

export function renderScreen(Routes: ComponentType, path: string) {
  // No retries: a failure shows at once, as the test expects it to.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
