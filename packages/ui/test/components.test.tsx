import { useState } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DataTable,
  DateField,
  formatAmount,
  formatDateTime,
  formatDay,
  formatLoose,
  formatShortDate,
  Pager,
  parseDay,
  TotalRecords,
  type ColumnDef,
} from '../src/index.ts';

afterEach(cleanup);

interface Row {
  atm: string;
  amount: number;
}
const columns: ColumnDef<Row, unknown>[] = [
  { header: 'ATM ID', accessorKey: 'atm' },
  { header: 'Amount', accessorKey: 'amount', meta: { numeric: true } },
];

describe('DataTable', () => {
  it('shows rows under their headers, amounts right-aligned', () => {
    render(<DataTable columns={columns} rows={[{ atm: 'APX00001', amount: 100 }]} caption="Disputes" />);
    screen.getByRole('table', { name: 'Disputes' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ATM ID', 'Amount']);
    expect(screen.getByRole('cell', { name: '100' }).className).toContain('ej-numeric');
  });

  it('says when there is nothing, and offers Retry on an error', async () => {
    const { rerender } = render(<DataTable columns={columns} rows={[]} />);
    screen.getByText('No records found');
    const onRetry = vi.fn();
    rerender(<DataTable columns={columns} rows={undefined} error="Could not load the list." onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('Could not load the list.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('ticks rows one by one or the whole page, the page box mixed when some are ticked, rows that cannot be ticked left out', async () => {
    const rows = [
      { atm: 'APX00001', amount: 100 },
      { atm: 'APX00002', amount: 200 },
      { atm: 'APX00003', amount: 300 },
    ];
    function Ticking() {
      const [ticked, setTicked] = useState<Set<string>>(new Set());
      return (
        <>
          <DataTable
            columns={columns}
            rows={rows}
            selection={{
              isSelected: (row) => ticked.has(row.atm),
              onChange: (changed, on) =>
                setTicked((now) => {
                  const next = new Set(now);
                  for (const row of changed) next[on ? 'add' : 'delete'](row.atm);
                  return next;
                }),
              label: (row) => `Select ATM ${row.atm}`,
              canSelect: (row) => row.amount !== 300,
            }}
          />
          <output>{[...ticked].sort().join(',')}</output>
        </>
      );
    }
    render(<Ticking />);
    const page = screen.getByRole('checkbox', { name: 'Select every row on this page' }) as HTMLInputElement;
    // The columns the table declares, after the box's.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'ATM ID', 'Amount']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select ATM APX00002' }));
    expect(screen.getByRole('status').textContent).toBe('APX00002');
    expect([page.checked, page.indeterminate]).toEqual([false, true]);
    await userEvent.click(page);
    // The row that cannot be ticked is left out, and the page counts as whole without it.
    expect(screen.getByRole('status').textContent).toBe('APX00001,APX00002');
    expect([page.checked, page.indeterminate]).toEqual([true, false]);
    expect((screen.getByRole('checkbox', { name: 'Select ATM APX00003' }) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(page);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  });
});

describe('Pager', () => {
  it('disables First and Prev on page 1, Next and Last on the last page', () => {
    const props = { onPage: vi.fn(), pageSize: 10, onPageSize: vi.fn() };
    const { rerender } = render(<Pager page={1} totalPages={3} {...props} />);
    const state = () => ['First', 'Prev', 'Next', 'Last'].map((name) => (screen.getByRole('button', { name }) as HTMLButtonElement).disabled);
    screen.getByText('Page 1 of 3');
    expect(state()).toEqual([true, true, false, false]);
    rerender(<Pager page={3} totalPages={3} {...props} />);
    expect(state()).toEqual([false, false, true, true]);
  });

  it('moves pages and sizes, showing sizes as "{n} per page"', async () => {
    const onPage = vi.fn();
    const onPageSize = vi.fn();
    render(<Pager page={2} totalPages={5} onPage={onPage} pageSize={10} onPageSize={onPageSize} />);
    await userEvent.click(screen.getByRole('button', { name: 'Last' }));
    await userEvent.click(screen.getByRole('button', { name: 'Prev' }));
    expect(onPage.mock.calls).toEqual([[5], [1]]);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['10 per page', '20 per page', '50 per page', '100 per page']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50');
    expect(onPageSize).toHaveBeenCalledWith(50);
  });

  it('says "of about" under an estimated count, and its Last asks for the last page instead of guessing its number', async () => {
    const onPage = vi.fn();
    const onLast = vi.fn();
    render(<Pager page={2} totalPages={120_000} onPage={onPage} pageSize={10} onPageSize={vi.fn()} exact={false} onLast={onLast} />);
    screen.getByText('Page 2 of about 120000');
    await userEvent.click(screen.getByRole('button', { name: 'Last' }));
    expect(onLast).toHaveBeenCalledTimes(1);
    expect(onPage).not.toHaveBeenCalled();
  });
});

describe('TotalRecords', () => {
  it('gives an exact count whole, an estimate as one', () => {
    const { rerender } = render(<TotalRecords count={1_234_567} />);
    screen.getByText('Total Records: 1,234,567');
    rerender(<TotalRecords count={1_234_567} exact={false} />);
    screen.getByText('Total Records: about 1.2 million');
    rerender(<TotalRecords count={240_512} exact={false} />);
    screen.getByText('Total Records: about 240.5 thousand');
  });
});

describe('formats', () => {
  it('writes detail dates as DD/MM/YY and amounts with two decimals', () => {
    expect(formatShortDate('2025-01-07')).toBe('07/01/25');
    expect(formatShortDate(null)).toBe('');
    expect(formatAmount('1500')).toMatch(/^1.?500.00$/);
    expect(formatAmount(null)).toBe('');
  });

  it('writes timestamps as DD/MM/YY HH:mm:ss in local time, and free-form ISO values in the same style', () => {
    const local = new Date(2026, 10, 23, 21, 5, 9).toISOString();
    expect(formatDateTime(local)).toBe('23/11/26 21:05:09');
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatLoose('2026-01-05')).toBe('05/01/26');
    expect(formatLoose(local)).toBe('23/11/26 21:05:09');
    expect(formatLoose('HRB00042')).toBe('HRB00042');
  });
});

describe('DateField', () => {
  it('reads a day typed DD/MM/YYYY (or pasted YYYY-MM-DD) and refuses an impossible one', () => {
    expect(parseDay('28/11/2026')).toBe('2026-11-28');
    expect(parseDay(' 1/2/2026 ')).toBe('2026-02-01');
    expect(parseDay('01.02.2026')).toBe('2026-02-01');
    expect(parseDay('2026-11-28')).toBe('2026-11-28');
    for (const wrong of ['31/02/2026', '29/02/2025', '12/13/2026', '28/11/26', '2026/11/28', 'tomorrow', '']) expect(parseDay(wrong), wrong).toBeNull();
    expect(formatDay('2026-11-28')).toBe('28/11/2026');
    expect(formatDay('')).toBe('');
  });

  it('hands on the day once typed whole, says an unfinished one on leaving, and shows a new value', async () => {
    const changes: string[] = [];
    function Harness({ start = '' }: { start?: string }) {
      const [value, setValue] = useState(start);
      const [was, setWas] = useState(start);
      if (start !== was) {
        setWas(start);
        setValue(start);
      }
      return (
        <DateField
          label="Start Date"
          value={value}
          onChange={(v) => {
            changes.push(v);
            setValue(v);
          }}
        />
      );
    }
    const { rerender } = render(<Harness />);
    const input = screen.getByLabelText('Start Date');
    const user = userEvent.setup();
    await user.type(input, '05/11/202');
    expect(changes).toEqual([]);
    await user.tab();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByText('Type a day as DD/MM/YYYY, such as 28/11/2026.').id);
    await user.click(input);
    await user.type(input, '6');
    expect(changes).toEqual(['2026-11-05']);
    await user.tab();
    expect(input.getAttribute('aria-invalid')).toBeNull();
    // Emptied: handed on as no day.
    await user.clear(input);
    expect(changes.at(-1)).toBe('');
    rerender(<Harness start="2025-01-31" />);
    expect((input as HTMLInputElement).value).toBe('31/01/2025');
  });
});
