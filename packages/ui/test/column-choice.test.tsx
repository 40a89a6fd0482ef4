import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, fitChoice, PreferenceStoreProvider, useColumnChoice, type ColumnChoice, type ColumnDef, type PreferenceStore } from '../src/index.ts';

afterEach(cleanup);

interface Row {
  atm: string;
  amount: number;
  bank: string;
}
const columns: ColumnDef<Row, unknown>[] = [
  { header: 'ATM ID', accessorKey: 'atm' },
  { header: 'Amount', accessorKey: 'amount' },
  { header: 'Bank Name', accessorKey: 'bank' },
];

/** A store that keeps what it is given, as the API does for one operator. */
function memoryStore(initial: ColumnChoice | null = null) {
  const kept = new Map<string, ColumnChoice | null>([['columns.disputes', initial]]);
  const store: PreferenceStore = {
    load: async (key) => kept.get(key) ?? null,
    save: async (key, value) => void kept.set(key, value),
    forget: async (key) => void kept.delete(key),
  };
  return { store, kept };
}

function Table() {
  const choice = useColumnChoice('disputes', columns);
  return <DataTable caption="Disputes" columns={columns} rows={[{ atm: 'APX1', amount: 5, bank: 'Harbor' }]} choice={choice} />;
}

function renderWith(store: PreferenceStore) {
  const client = new QueryClient();
  return render(
    <QueryClientProvider client={client}>
      <PreferenceStoreProvider value={store}>
        <Table />
      </PreferenceStoreProvider>
    </QueryClientProvider>,
  );
}

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

describe('fitChoice', () => {
  it('fits a saved choice to the columns the table has today', () => {
    const ids = ['a', 'b', 'c'];
    expect(fitChoice(ids, null)).toEqual({ order: ['a', 'b', 'c'], hidden: [] });
    expect(fitChoice(ids, { order: ['c', 'gone', 'a'], hidden: ['gone', 'b'] })).toEqual({ order: ['c', 'a', 'b'], hidden: ['b'] });
    // Every column hidden (a stale choice): one comes back, so the table is never empty.
    expect(fitChoice(ids, { order: ids, hidden: ['a', 'b', 'c'] }).hidden).toHaveLength(2);
  });
});

describe('the Columns menu', () => {
  it('shows the saved choice, hides and moves columns, saves each change, and resets', async () => {
    const { store, kept } = memoryStore({ order: ['bank', 'atm', 'amount'], hidden: [] });
    renderWith(store);
    await waitFor(() => expect(headers()).toEqual(['Bank Name', 'ATM ID', 'Amount']));

    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Columns' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    await user.click(screen.getByRole('checkbox', { name: 'Amount' }));
    expect(headers()).toEqual(['Bank Name', 'ATM ID']);
    await waitFor(() => expect(kept.get('columns.disputes')).toEqual({ order: ['bank', 'atm', 'amount'], hidden: ['amount'] }));
    screen.getByRole('button', { name: /Columns \(2 of 3\)/ });

    // Moving down re-orders the rows of the menu; the button keeps the keyboard focus.
    const down = screen.getByRole('button', { name: 'Move Bank Name down' });
    await user.click(down);
    expect(headers()).toEqual(['ATM ID', 'Bank Name']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Bank Name down' }));
    await waitFor(() => expect(kept.get('columns.disputes')?.order).toEqual(['atm', 'bank', 'amount']));
    // At the top, Up does nothing but stays focusable.
    const up = screen.getByRole('button', { name: 'Move ATM ID up' });
    expect(up.getAttribute('aria-disabled')).toBe('true');
    await user.click(up);
    expect(headers()).toEqual(['ATM ID', 'Bank Name']);

    await user.click(screen.getByRole('button', { name: 'Reset columns' }));
    expect(headers()).toEqual(['ATM ID', 'Amount', 'Bank Name']);
    await waitFor(() => expect(kept.has('columns.disputes')).toBe(false));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Columns of Disputes' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('pins a column: it leads the order, moves only among the pinned, and unpinned rejoins the rest', async () => {
    const { store, kept } = memoryStore({ order: ['atm', 'amount', 'bank'], hidden: [] });
    renderWith(store);
    await waitFor(() => expect(headers()).toEqual(['ATM ID', 'Amount', 'Bank Name']));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const pin = screen.getByRole('button', { name: 'Pin Bank Name at the left' });
    expect(pin.getAttribute('aria-pressed')).toBe('false');
    await user.click(pin);
    expect(headers()).toEqual(['Bank Name', 'ATM ID', 'Amount']);
    expect(screen.getByRole('button', { name: 'Pin Bank Name at the left' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(kept.get('columns.disputes')).toEqual({ order: ['bank', 'atm', 'amount'], hidden: [], pinned: ['bank'] }));
    // The one pinned column cannot move down among the unpinned, nor can ATM ID move above it.
    expect(screen.getByRole('button', { name: 'Move Bank Name down' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Move ATM ID up' }).getAttribute('aria-disabled')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Move ATM ID up' }));
    expect(headers()).toEqual(['Bank Name', 'ATM ID', 'Amount']);
    // Pinned second, ATM ID joins the pinned after Bank Name; unpinned, Bank Name follows them.
    await user.click(screen.getByRole('button', { name: 'Pin ATM ID at the left' }));
    await user.click(screen.getByRole('button', { name: 'Pin Bank Name at the left' }));
    expect(headers()).toEqual(['ATM ID', 'Bank Name', 'Amount']);
    await waitFor(() => expect(kept.get('columns.disputes')).toMatchObject({ pinned: ['atm'] }));
  });

  it('has a menu in each header: sort, move, pin and hide where the operator looks; a header dragged onto another takes its place', async () => {
    const { store, kept } = memoryStore({ order: ['atm', 'amount', 'bank'], hidden: [] });
    renderWith(store);
    await waitFor(() => expect(headers()).toEqual(['ATM ID', 'Amount', 'Bank Name']));
    const user = userEvent.setup();
    // The header's options: a button inside it, after its name.
    const bank = screen.getByRole('columnheader', { name: /^Bank Name/ });
    await user.click(within(bank).getByRole('button', { name: 'Column options' }));
    const menu = screen.getByRole('group', { name: 'Options of Bank Name' });
    expect(within(menu).getByRole('button', { name: 'Move right' })).toHaveProperty('disabled', true);
    await user.click(within(menu).getByRole('button', { name: 'Move left' }));
    expect(headers()).toEqual(['ATM ID', 'Bank Name', 'Amount']);
    // The focus goes back to the header's button; the menu is closed.
    expect(screen.queryByRole('group', { name: 'Options of Bank Name' })).toBeNull();
    await user.click(within(screen.getByRole('columnheader', { name: /^Bank Name/ })).getByRole('button', { name: 'Column options' }));
    await user.click(screen.getByRole('button', { name: 'Pin to the left' }));
    expect(headers()).toEqual(['Bank Name', 'ATM ID', 'Amount']);
    await user.click(within(screen.getByRole('columnheader', { name: /^Amount/ })).getByRole('button', { name: 'Column options' }));
    await user.click(screen.getByRole('button', { name: 'Hide column' }));
    expect(headers()).toEqual(['Bank Name', 'ATM ID']);
    await waitFor(() => expect(kept.get('columns.disputes')).toMatchObject({ hidden: ['amount'], pinned: ['bank'] }));

    // Dragged: ATM ID onto Bank Name cannot pass the pinned column; shown again, Amount onto ATM ID can.
    const drag = (from: string, to: string) => {
      const data = new Map<string, string>();
      const dataTransfer = {
        setData: (k: string, v: string) => data.set(k, v),
        getData: (k: string) => data.get(k) ?? '',
        get types() {
          return [...data.keys()];
        },
        effectAllowed: '',
      };
      const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
      fireEvent.dragStart(header(from), { dataTransfer });
      fireEvent.dragOver(header(to), { dataTransfer });
      fireEvent.drop(header(to), { dataTransfer });
    };
    drag('ATM ID', 'Bank Name');
    expect(headers()).toEqual(['Bank Name', 'ATM ID']);
    await user.click(screen.getByRole('button', { name: /^Columns/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Amount' }));
    await user.keyboard('{Escape}');
    drag('Amount', 'ATM ID');
    expect(headers()).toEqual(['Bank Name', 'Amount', 'ATM ID']);
  });

  it('shows a saved width and keeps a width dragged with the resize handle with the choice', async () => {
    const { store, kept } = memoryStore({ order: ['atm', 'amount', 'bank'], hidden: [], widths: { bank: 300, gone: 90 } });
    const { container } = renderWith(store);
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Bank Name' }).style.width).toBe('300px'));
    expect(screen.getByRole('cell', { name: 'Harbor' }).style.width).toBe('300px');

    const handles = container.querySelectorAll<HTMLElement>('th .ej-resize');
    expect(handles).toHaveLength(3);
    const bank = handles[2]!;
    fireEvent.pointerDown(bank, { clientX: 500, pointerId: 1 });
    fireEvent.pointerMove(bank, { clientX: 520, pointerId: 1 });
    // While dragged it shows at once; kept when let go.
    expect(screen.getByRole('columnheader', { name: 'Bank Name' }).style.width).toBe('320px');
    expect(kept.get('columns.disputes')?.widths).toEqual({ bank: 300, gone: 90 });
    fireEvent.pointerUp(bank, { clientX: 532, pointerId: 1 });
    await waitFor(() => expect(kept.get('columns.disputes')?.widths).toEqual({ bank: 332 }));
    // Never narrower than 40 px.
    fireEvent.pointerDown(bank, { clientX: 500, pointerId: 1 });
    fireEvent.pointerUp(bank, { clientX: 0, pointerId: 1 });
    await waitFor(() => expect(kept.get('columns.disputes')?.widths).toEqual({ bank: 40 }));

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByRole('button', { name: 'Reset columns' }));
    await waitFor(() => expect(kept.has('columns.disputes')).toBe(false));
    expect(screen.getByRole('columnheader', { name: 'Bank Name' }).style.width).toBe('');
  });

  it('makes a column narrower or wider from the keyboard, says the width, and keeps it with the choice', async () => {
    const { store, kept } = memoryStore({ order: ['atm', 'amount', 'bank'], hidden: ['amount'], widths: { bank: 300 } });
    renderWith(store);
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Bank Name' }).style.width).toBe('300px'));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Columns/ }));

    // Keys only: with Wider focused, Enter and Space press it.
    const wider = screen.getByRole('button', { name: 'Make Bank Name wider' });
    wider.focus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(screen.getByRole('columnheader', { name: 'Bank Name' }).style.width).toBe('340px');
    expect(screen.getByRole('status').textContent).toBe('Bank Name: 340 px');
    await waitFor(() => expect(kept.get('columns.disputes')?.widths).toEqual({ bank: 340 }));
    await user.click(screen.getByRole('button', { name: 'Make Bank Name narrower' }));
    await waitFor(() => expect(kept.get('columns.disputes')?.widths).toEqual({ bank: 320 }));

    // A column without a width starts from the width it shows (none here: no layout), never below 40 px.
    await user.click(screen.getByRole('button', { name: 'Make ATM ID narrower' }));
    await waitFor(() => expect(kept.get('columns.disputes')?.widths).toEqual({ bank: 320, atm: 40 }));
    // A hidden column shows no width to change.
    expect((screen.getByRole('button', { name: 'Make Amount wider' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps the last visible column', async () => {
    const { store } = memoryStore({ order: ['atm', 'amount', 'bank'], hidden: ['amount', 'bank'] });
    renderWith(store);
    await waitFor(() => expect(headers()).toEqual(['ATM ID']));
    await userEvent.click(screen.getByRole('button', { name: /Columns/ }));
    expect((screen.getByRole('checkbox', { name: 'ATM ID' }) as HTMLInputElement).disabled).toBe(true);
  });
});
