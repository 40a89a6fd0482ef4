// The files remote on its own: each kind's list and detail screen against a faked API (the real
// client, the network answered by fakeApi), from the same table of kinds the routes are made from.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, fileKindPaths, restoreFakeApi, routes } from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import { fileKinds } from '../src/lib/kinds.ts';
import FilesRoutes from '../src/routes.tsx';

const at = '2026-11-20T09:30:00Z';
const file = (id: number, name: string) => ({ id, name, subject_name: `Results ${name}`, create_at: at, update_at: at });

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);

describe.each(fileKinds.map((kind) => [kind.path, kind] as const))('%s', (_path, kind) => {
  const files = [file(11, `${kind.rowsKey}_harbor.txt`), file(12, `${kind.rowsKey}_apex.txt`)];

  it(`lists the ${kind.title} files from ${kind.paginated ? 'pages' : 'one list'}`, async () => {
    network = fakeApi(
      kind.paginated
        ? routes(`${fileKindPaths[kind.api]}/pagination/`, { count: 2, total_pages: 1, next: null, previous: null, results: files })
        : routes(`${fileKindPaths[kind.api]}/`, files),
    );
    renderScreen(FilesRoutes, kind.path);
    screen.getByRole('heading', { level: 1, name: kind.title });
    await screen.findByText(files[0]!.name);
    screen.getByText(files[1]!.name);
    screen.getByRole('columnheader', { name: new RegExp(kind.nameHeader) });
    expect(network.requests[0]?.path).toBe(kind.paginated ? `${fileKindPaths[kind.api]}/pagination/` : `${fileKindPaths[kind.api]}/`);
  });

  it("shows a file's rows under their labelled columns, and says so when the file is gone", async () => {
    const row = { ID: 1, 'ATM ID': 'HRB00001', 'CARD No.': '4111XXXXXXXX1001', 'TXT No.': '700001', [kind.responseKey]: '91', dispute_id: 42 };
    network = fakeApi(routes(`${fileKindPaths[kind.api]}/11/`, { ...files[0]!, email_id: 7, email_subject: 'ATM complaints', [kind.rowsKey]: [row] }));
    renderScreen(FilesRoutes, `${kind.path}/11`);
    await screen.findByRole('heading', { level: 1, name: `${kind.title}: ${files[0]!.name}` });
    screen.getByText('HRB00001');
    screen.getByRole('columnheader', { name: new RegExp(kind.responseKey) });
    // The email it came in and the row's dispute, each a link.
    expect(screen.getByRole('link', { name: 'ATM complaints' }).getAttribute('href')).toBe('/email-details-data/7');
    expect(screen.getByRole('link', { name: 'Open the dispute of ATM HRB00001, transaction 700001' }).getAttribute('href')).toBe('/disputes/42');
    cleanup();
    renderScreen(FilesRoutes, `${kind.path}/99`);
    expect((await screen.findByRole('alert')).textContent).toContain('File 99 was not found');
  });
});
