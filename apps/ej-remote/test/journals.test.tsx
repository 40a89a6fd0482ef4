// The journal screens alone against a faked API: the Journals list with its filters and the
// upload (file button and drop, each answer said), the viewer (only the lines in view asked for,
// ?line=N highlighted, Find through the whole journal, jump to a transaction), the dispute's
// Journal panel (verdict in words, evidence lines marked, neighbours collapsed, Apply the
// suggestion and why it may not be pressed), and the EJ table's verdict column, filter and bulk
// actions.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  answer,
  fakeApi,
  restoreFakeApi,
  type DisputeRecord,
  type DisputeStory,
  type EjRecord,
  type Evidence,
  type JournalDetail,
  type JournalItem,
  type JournalUpload,
} from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import EjRoutes from '../src/routes.tsx';

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);
beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:fake');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
});

const journal = (id: number, atm: string, anomalies: JournalItem['anomaly_kinds'] = []): JournalItem => ({
  id,
  file_name: `EJ_${atm}_20250204.txt`,
  atm_id: atm,
  day: '2025-02-04',
  family: 'ncr',
  sha256: 'ab'.repeat(32),
  size_bytes: 200_000,
  line_count: 4200,
  unknown_lines: 12,
  transaction_count: 131,
  anomaly_count: anomalies.length,
  anomaly_kinds: anomalies,
  source: 'mail',
  email_id: 4,
  uploaded_by: null,
  create_at: '2025-02-05T08:00:00Z',
});
const page = (results: JournalItem[]) => ({ count: results.length, total_pages: 1, next: null, previous: null, results });
const uploaded = (created: boolean): JournalUpload => {
  const { id, file_name, atm_id, day, family, sha256, line_count, transaction_count, anomaly_kinds } = journal(9, 'S1AB012345');
  return { created, journal: { id, file_name, atm_id, day, family, sha256, line_count, transaction_count, anomaly_kinds, source: 'upload' } };
};

describe('/journals', () => {
  it('lists the journals with their anomalies in words, and sends the filters from the URL and the form', async () => {
    network = fakeApi({
      '/journals/': (request) =>
        page(
          request.params.anomaly === 'restart' ? [journal(2, 'DPCN123401', ['restart'])] : [journal(1, 'S1AB012345'), journal(2, 'DPCN123401', ['restart'])],
        ),
    });
    renderScreen(EjRoutes, '/journals?atm_id=S1');
    screen.getByRole('heading', { level: 1, name: 'Journals' });
    const table = await screen.findByRole('table', { name: 'Journals' });
    await within(table).findByText('1: Restart mid-transaction');
    expect(within(table).getByRole('link', { name: 'EJ_S1AB012345_20250204.txt' }).getAttribute('href')).toBe('/journals/1');
    expect(network.requests[0]?.params).toMatchObject({ atm_id: 'S1', page: 1 });
    await userEvent.selectOptions(screen.getByLabelText('Anomaly'), 'Restart mid-transaction');
    await waitFor(() => screen.getByText('Total Records: 1'));
    expect(network.requests.at(-1)?.params).toMatchObject({ atm_id: 'S1', anomaly: 'restart' });
    screen.getByRole('button', { name: /Anomaly: Restart mid-transaction/ });
  });

  it('uploads a chosen file and says what the API answered: new, already had, not a journal', async () => {
    const answers = [
      () => uploaded(true),
      () => uploaded(false),
      () => {
        throw answer(400, { detail: 'notes.txt is not a journal: no family recognises its lines' });
      },
    ];
    network = fakeApi({ '/journals/': page([]), 'POST /journals/': () => answers.shift()!() });
    renderScreen(EjRoutes, '/journals');
    await screen.findByText('No journals yet: they arrive by mail, or drop one here.');
    const input = screen.getByLabelText('Journal files to upload');
    await userEvent.upload(input, new File(['[020t*476*04/02/2025*06:26:55*\n'], 'EJ_S1AB012345_20250204.txt', { type: 'text/plain' }));
    const uploads = screen.getByRole('list', { name: 'Uploads' });
    await within(uploads).findByText(/New journal: NCR, ATM S1AB012345, 04\/02\/25, 131 transactions/);
    expect(within(uploads).getByRole('link', { name: 'Open the journal' }).getAttribute('href')).toBe('/journals/9');
    const sent = network.requests.find((r) => r.method === 'POST')!.body as FormData;
    expect((sent.get('file') as File).name).toBe('EJ_S1AB012345_20250204.txt');

    await userEvent.upload(input, new File(['x'], 'again.txt'));
    await within(uploads).findByText(/Already had this journal \(the same SHA-256, stored as EJ_S1AB012345_20250204.txt\)/);
    await userEvent.upload(input, new File(['hello'], 'notes.txt'));
    expect((await within(uploads).findByRole('alert')).textContent).toBe('Not stored: notes.txt is not a journal: no family recognises its lines.');
  });

  it('uploads files dropped anywhere on the screen', async () => {
    network = fakeApi({ '/journals/': page([]), 'POST /journals/': () => uploaded(true) });
    renderScreen(EjRoutes, '/journals');
    const heading = screen.getByRole('heading', { level: 1, name: 'Journals' });
    const file = new File(['journal'], 'dropped.jrn');
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };
    fireEvent.dragOver(heading, { dataTransfer });
    screen.getByText('Drop the journal to upload it');
    fireEvent.drop(heading, { dataTransfer });
    await screen.findByText(/New journal: NCR/);
    expect(screen.queryByText('Drop the journal to upload it')).toBeNull();
    expect(((network.requests.find((r) => r.method === 'POST')!.body as FormData).get('file') as File).name).toBe('dropped.jrn');
  });
});

const detail: JournalDetail = {
  ...journal(7, 'S1AB012345', ['dispense_failure']),
  line_count: 4200,
  anomalies: [{ line: 3456, kind: 'dispense_failure', text: 'UNABLE TO DISPENSE' }],
  transactions: [
    {
      id: 70,
      seq: 41,
      kind: 'withdrawal',
      atm_id: 'S1AB012345',
      at: '2025-02-04T06:26:55',
      card_last4: '1234',
      rrn: '503506123456',
      stan: '123456',
      serial: '6437',
      response_code: '000',
      requested_amount: '2000.00',
      presented: [0, 0, 0, 0],
      dispensed_amount: '0.00',
      verdict: 'not_dispensed',
      reason: 'approved, nothing presented',
      lines: { from: 3440, to: 3470 },
      evidence: [3450, 3456],
      cut: null,
    },
  ],
  counters: [],
};
const lineText = (n: number) => (n === 2345 ? 'RRN 503506999999' : `LINE ${n} OF THE JOURNAL`);

describe('/journals/:id, the viewer', () => {
  const linesApi = () =>
    fakeApi({
      '/journals/7/': detail,
      '/journals/7/lines/': (request) => {
        const from = Number(request.params.from);
        const to = Number(request.params.to);
        const lines = Array.from({ length: to - from + 1 }, (_, i) => ({ number: from + i, text: lineText(from + i) }));
        return { journal_id: 7, from, to, line_count: 4200, lines };
      },
    });

  it('opens at ?line=N with that line highlighted, asking only for the lines around it', async () => {
    network = linesApi();
    renderScreen(EjRoutes, '/journals/7?line=1500');
    await screen.findByRole('heading', { level: 1, name: 'Journal EJ_S1AB012345_20250204.txt' });
    const target = await screen.findByText('LINE 1500 OF THE JOURNAL');
    expect(target.closest('[role="listitem"]')?.textContent).toBe('1500LINE 1500 OF THE JOURNAL (the line asked for)');
    screen.getByText('Line 1500 is highlighted.');
    const asked = network.requests.filter((r) => r.path === '/journals/7/lines/').map((r) => r.params);
    expect(asked).toEqual([{ from: 1001, to: 2000 }]);
    // Thousands of lines, a few dozen drawn.
    expect(screen.getAllByRole('listitem').length).toBeLessThan(120);
    expect(screen.queryByText('LINE 1 OF THE JOURNAL')).toBeNull();
  });

  it('finds text anywhere in the journal, block by block, and says when it is not there', async () => {
    network = linesApi();
    renderScreen(EjRoutes, '/journals/7');
    await screen.findByText('LINE 1 OF THE JOURNAL');
    await userEvent.type(screen.getByLabelText('Find'), '503506999999');
    await userEvent.click(screen.getByRole('button', { name: 'Find next' }));
    await screen.findByText('“503506999999” found on line 2345.');
    expect((await screen.findByText('RRN 503506999999')).closest('[role="listitem"]')?.getAttribute('data-target')).toBe('true');
    await userEvent.clear(screen.getByLabelText('Find'));
    await userEvent.type(screen.getByLabelText('Find'), 'NO SUCH WORDS{Enter}');
    await screen.findByText("“NO SUCH WORDS” is not in the journal's 4,200 lines.");
  });

  it('jumps to a transaction chosen by its number, time, amount and verdict', async () => {
    network = linesApi();
    renderScreen(EjRoutes, '/journals/7');
    await screen.findByText('LINE 1 OF THE JOURNAL');
    const choice = screen.getByLabelText('Jump to a transaction');
    await userEvent.selectOptions(choice, '#41 06:26:55 withdrawal 2,000.00, Not dispensed (lines 3440–3470)');
    await screen.findByText('Line 3440 is highlighted.');
    await screen.findByText('LINE 3440 OF THE JOURNAL');
  });

  it('says a journal that does not exist does not', async () => {
    network = fakeApi({});
    renderScreen(EjRoutes, '/journals/99');
    expect((await screen.findByRole('alert')).textContent).toBe('No such journal.');
  });
});

const excerptLine = (number: number, text: string, evidence = false) => ({ number, text, evidence, journal_id: 7 });
const evidence: Evidence = {
  verdict: 'not_dispensed',
  reason: 'Approved by the host; the dispenser failed (M-03 R-0011) and presented nothing; no reversal.',
  at: '2025-02-04T06:26:55',
  matched_at: '2025-02-05T08:00:00Z',
  requested_amount: '2000.00',
  dispensed_amount: '0.00',
  match: 'rrn',
  candidates: 1,
  journal: { id: 7, file_name: 'EJ_S1AB012345_20250204.txt', atm_id: 'S1AB012345', day: '2025-02-04', sha256: 'ab'.repeat(32) },
  lines: { from: 3440, to: 3443 },
  continuation: null,
  excerpt: [
    excerptLine(3440, '*TRANSACTION START*'),
    excerptLine(3441, 'RESPONSE RECEIVED [FUNCTION ID=9,  TXN SN NO=6437]', true),
    excerptLine(3442, 'UNABLE TO DISPENSE M-03 R-0011', true),
    excerptLine(3443, 'TRANSACTION END'),
  ],
  before: [
    {
      seq: 40,
      kind: 'withdrawal',
      at: '2025-02-04T06:20:01',
      requested_amount: '500.00',
      dispensed_amount: '500.00',
      verdict: 'dispensed',
      lines: { from: 3400, to: 3401 },
      excerpt: [excerptLine(3400, 'NOTES PRESENTED 0,1,0,0', true), excerptLine(3401, 'NOTES TAKEN', true)],
    },
  ],
  after: [],
  counters: {
    line: 3500,
    at: '2025-02-04T07:00:00',
    cassettes: [
      { position: 1, denomination: 100, dispensed: 12, rejected: 1, remaining: 988 },
      { position: 2, denomination: 500, dispensed: 40, rejected: 0, remaining: 460 },
    ],
  },
  suggestion: { status: 'resolved', outcome: 'credited', advice: 'credit the customer' },
};
const story = (changes: Partial<DisputeStory> = {}): DisputeStory => ({
  id: 5,
  atm_id: 'S1AB012345',
  txt_no: '503506123456',
  card_no: '4111XXXXXXXX1234',
  bank_name: 'Harbor Bank',
  transaction_date: '2025-02-04',
  complaint_date: '2025-02-05',
  status: 'open',
  outcome: null,
  due_date: '2025-02-10',
  age_days: 1,
  overdue_days: 0,
  due_today: false,
  owner_id: null,
  owner: null,
  follow_up_on: null,
  next_deadline: '2025-02-10',
  next_clock: 'RBI TAT',
  penalty: '0.00',
  currency: 'INR',
  clock_started_on: '2025-02-05',
  stopped_on: null,
  penalty_per_day: '100.00',
  status_source: 'mail',
  status_reason: 'first mail',
  status_by: '',
  status_at: '2025-02-05T08:00:00Z',
  rule_id: null,
  rule_name: null,
  stage: 'complaint',
  network: '',
  cost_bearer: null,
  clocks: [],
  rows: [],
  history: [],
  evidence,
  ...changes,
});

describe('/disputes/:id, the Journal panel', () => {
  it('shows the verdict in words, the amounts, the journal, the lines with the evidence marked, and links the journal at the line', async () => {
    network = fakeApi({ '/disputes/5/': story() });
    renderScreen(EjRoutes, '/disputes/5');
    const panel = (await screen.findByRole('heading', { name: 'Journal' })).closest<HTMLElement>('.ej-panel')!;
    within(panel).getByText('Not dispensed');
    within(panel).getByText(/Approved by the host; the dispenser failed/);
    within(panel).getByText(/2,000.00 INR/);
    within(panel).getByText('by its RRN, at 2025-02-04 06:26:55');
    within(panel).getByText('ab'.repeat(32));
    const lines = within(panel).getByRole('table', { name: 'Lines 3440 to 3443 of EJ_S1AB012345_20250204.txt' });
    const marked = within(lines)
      .getAllByRole('row')
      .filter((row) => row.textContent?.includes('▶ Evidence'))
      .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    expect(marked).toEqual(['3441', '3442']);
    expect(within(panel).getByRole('link', { name: 'Open the whole journal at line 3440' }).getAttribute('href')).toBe('/journals/7?line=3440');
    const counts = within(panel).getByRole('table', { name: /Cassette counts nearest to it: line 3500/ });
    expect(within(counts).getAllByRole('row')[2]!.textContent).toBe('2500400460');
    within(panel).getByText('No transaction after it in this journal.');
  });

  it('keeps the transactions before collapsed behind a disclosure button', async () => {
    network = fakeApi({ '/disputes/5/': story() });
    renderScreen(EjRoutes, '/disputes/5');
    const button = await screen.findByRole('button', { name: 'The transaction before' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('table', { name: 'Lines of transaction 40' })).toBeNull();
    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    screen.getByRole('heading', { name: '#40 · 06:20:01 · withdrawal · 500.00 · Dispensed · lines 3400–3401' });
    screen.getByRole('table', { name: 'Lines of transaction 40' });
  });

  it('applies the suggestion, saying first what it will set', async () => {
    let applied = false;
    network = fakeApi({
      '/disputes/5/': () => (applied ? story({ status: 'resolved', outcome: 'credited' }) : story()),
      'POST /disputes/5/apply-suggestion/': () => {
        applied = true;
        return { updated: 1, skipped_operator: 0, skipped_no_suggestion: 0, skipped_unchanged: 0 };
      },
    });
    renderScreen(EjRoutes, '/disputes/5');
    const apply = await screen.findByRole('button', { name: 'Apply the suggestion: Resolved (credited)' });
    expect(apply.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(apply.getAttribute('aria-describedby')!)?.textContent).toBe('Sets the status to Resolved (credited): credit the customer');
    await userEvent.click(apply);
    await waitFor(() => expect(document.getElementById(apply.getAttribute('aria-describedby')!)?.textContent).toBe('Already Resolved (credited).'));
    expect(network.requests.some((r) => r.method === 'POST' && r.path === '/disputes/5/apply-suggestion/')).toBe(true);
    expect((apply as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    [
      { status_source: 'operator', status: 'awaiting_msp', status_by: 'operator@example.com' } as const,
      'No change: an operator set the status (Awaiting MSP); a suggestion never overwrites it.',
    ],
    [
      { evidence: { ...evidence, verdict: 'indeterminate', dispensed_amount: null, suggestion: null } } as const,
      'No suggestion: the journal cannot say, so a person must judge.',
    ],
  ])('disables Apply the suggestion and says why', async (changes, why) => {
    network = fakeApi({ '/disputes/5/': story(changes as Partial<DisputeStory>) });
    renderScreen(EjRoutes, '/disputes/5');
    const apply = await screen.findByRole('button', { name: /^Apply the suggestion/ });
    expect((apply as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById(apply.getAttribute('aria-describedby')!)?.textContent).toBe(why);
  });

  it('downloads the evidence pack the server made, under its name', async () => {
    network = fakeApi({ '/disputes/5/': story(), '/disputes/5/evidence.pdf': new Blob(['%PDF-1.7']) });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderScreen(EjRoutes, '/disputes/5');
    await userEvent.click(await screen.findByRole('button', { name: 'Download evidence (PDF)' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('evidence-5.pdf');
  });

  it('says when several transactions fit, and guesses no verdict', async () => {
    network = fakeApi({
      '/disputes/5/': story({
        evidence: {
          ...evidence,
          verdict: null,
          match: 'ambiguous',
          candidates: 2,
          journal: null,
          lines: null,
          excerpt: [],
          before: [],
          counters: null,
          suggestion: null,
        },
      }),
    });
    renderScreen(EjRoutes, '/disputes/5');
    await screen.findByText('2 transactions of the journals received fit this dispute: no verdict is guessed, a person must judge.');
    expect(screen.queryByRole('button', { name: /^Apply the suggestion/ })).toBeNull();
  });

  it('offers the upload when no journal has spoken of the dispute yet', async () => {
    network = fakeApi({ '/disputes/5/': story({ evidence: null }), 'POST /journals/': () => uploaded(true) });
    renderScreen(EjRoutes, '/disputes/5');
    await screen.findByText('No journal has spoken of this dispute yet.');
    await userEvent.upload(screen.getByLabelText('Journal files to upload'), new File(['x'], 'EJ.txt'));
    await screen.findByText(/New journal: NCR/);
  });
});

describe('/email, the journal verdict', () => {
  const row = (id: number, verdict: DisputeRecord['verdict']): DisputeRecord => ({
    id,
    atm_id: `S1AB01234${id}`,
    card_no: '4111XXXXXXXX1234',
    txt_no: String(503506000000 + id),
    transaction_date: '2025-02-04',
    transaction_amt: '2000.00',
    dispute_amt: '2000.00',
    overage: null,
    msp_remarks: '',
    msp_ref_no: '',
    short_desc_ej_error: '',
    ej_error: '',
    complaint_date: '2025-02-05',
    short_description: '',
    mail_received_from: 'disputes@harborbank.example',
    mail_subject: 'ATM disputes',
    dispute_id: id,
    status: 'open',
    outcome: null,
    due_date: '2025-02-10',
    age_days: 1,
    overdue_days: 0,
    due_today: false,
    owner_id: null,
    owner: null,
    follow_up_on: null,
    next_deadline: '2025-02-10',
    next_clock: 'RBI TAT',
    penalty: '0.00',
    currency: 'INR',
    verdict,
    dispensed_amount: verdict ? '0.00' : null,
  });
  const rows = [row(1, 'not_dispensed'), row(2, 'dispensed'), row(3, null)];

  it('sets only the follow-up day of the ticked rows when the owner is left as each one’s', async () => {
    network = fakeApi({
      '/scrape/extract/email/data/pagination/': { count: 3, total_pages: 1, next: null, previous: null, results: rows as unknown as EjRecord[] },
      '/disputes/owners/': [{ id: 7, email: 'ops@bank.example' }],
      'POST /disputes/follow-up/': { updated: 2 },
    });
    renderScreen(EjRoutes, '/email');
    const table = await screen.findByRole('table', { name: 'EJ error data' });
    await userEvent.click(await within(table).findByRole('checkbox', { name: /S1AB012341/ }));
    await userEvent.click(within(table).getByRole('checkbox', { name: /S1AB012342/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Owner and follow-up of 2 selected…' }));
    const dialog = screen.getByRole('dialog', { name: 'Owner and follow-up of 2 selected' });
    expect((within(dialog).getByLabelText('Owner') as HTMLSelectElement).value).toBe('keep');
    // Nothing chosen yet: nothing to send.
    expect(within(dialog).getByRole('button', { name: 'Set for 2 disputes' })).toHaveProperty('disabled', true);
    await userEvent.type(within(dialog).getByLabelText('Follow up on', { exact: true }), '30/11/2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set for 2 disputes' }));
    await waitFor(() => expect(network.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(network.requests.find((r) => r.method === 'POST')?.body).toEqual({ ids: [1, 2], follow_up_on: '2026-11-30' });
  });

  it('shows each verdict in words, filters by it, and applies the suggestion to all matching', async () => {
    network = fakeApi({
      '/scrape/extract/email/data/pagination/': (request) => {
        const results = (request.params.verdict ? rows.filter((r) => r.verdict === request.params.verdict) : rows) as unknown as EjRecord[];
        return { count: results.length, total_pages: 1, next: null, previous: null, results };
      },
      'POST /disputes/apply-suggestion/': { updated: 1, skipped_operator: 0, skipped_no_suggestion: 0, skipped_unchanged: 0 },
    });
    renderScreen(EjRoutes, '/email');
    const table = await screen.findByRole('table', { name: 'EJ error data' });
    await within(table).findByText('Not dispensed');
    within(table).getByText('Dispensed');
    within(table).getByText('No verdict');
    await userEvent.selectOptions(screen.getByLabelText('Verdict'), 'Not dispensed');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => screen.getByText('Total Records: 1'));
    expect(network.requests.at(-1)?.params).toMatchObject({ verdict: 'not_dispensed' });
    await userEvent.click(screen.getByRole('button', { name: 'Apply the suggestion to all 1 matching…' }));
    const dialog = screen.getByRole('dialog');
    within(dialog).getByText(/the 1 records matching Verdict: Not dispensed/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply the suggestion' }));
    await waitFor(() => expect(network.requests.some((r) => r.path === '/disputes/apply-suggestion/')).toBe(true));
    expect(network.requests.find((r) => r.path === '/disputes/apply-suggestion/')!.body).toEqual({ filters: { verdict: 'not_dispensed' } });
  });

  it('downloads the evidence ZIP of all matching, and says when none has evidence', async () => {
    let zips = 0;
    network = fakeApi({
      '/scrape/extract/email/data/pagination/': { count: 3, total_pages: 1, next: null, previous: null, results: rows as unknown as EjRecord[] },
      'POST /disputes/evidence.zip': () => {
        if (zips++) throw answer(404, { detail: 'None of these disputes has journal evidence yet.' });
        return new Blob(['PK']);
      },
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderScreen(EjRoutes, '/email?tat=open');
    await screen.findByText('Total Records: 3');
    await userEvent.click(screen.getByRole('button', { name: 'Download evidence (ZIP)' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(network.requests.find((r) => r.path === '/disputes/evidence.zip')!.body).toEqual({ filters: { tat: 'open' } });
  });
});
