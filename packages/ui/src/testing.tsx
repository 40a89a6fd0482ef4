// For the remotes' own tests: one of a remote's screens rendered as the shell would host it (a
// query client, a router at the path), without the shell.
import type { ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A screen test file's hooks: the screens log the failures they show (the tests check what is
 * shown, so the log is kept quiet), and each test starts from an empty page and no spies.
 */
export function screenTestHooks(): void {
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
}

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
