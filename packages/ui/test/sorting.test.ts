import { describe, expect, it } from 'vitest';
import { sortedRows } from '../src/sorting.ts';

type Row = { id: number; amount: string | null; date: string | null; atm: string };
const rows: Row[] = [
  { id: 5, amount: '90.00', date: '2025-03-02', atm: 'APX00010' },
  { id: 4, amount: null, date: null, atm: 'APX00002' },
  { id: 3, amount: '1000.00', date: '2025-03-10', atm: 'APX00010' },
  { id: 2, amount: '90.00', date: '2025-02-28', atm: 'HRB00001' },
  { id: 1, amount: '250.50', date: '', atm: 'APX00001' },
];
const ids = (key: keyof Row, descending: boolean) => sortedRows(rows, { key, descending }, (row, k) => row[k as keyof Row]).map((r) => r.id);

describe('sortedRows (the order of a list loaded whole, as the API orders /email)', () => {
  it('orders amounts as numbers, an empty value the smallest, ties in the order they came', () => {
    expect(ids('amount', false)).toEqual([4, 5, 2, 1, 3]);
    expect(ids('amount', true)).toEqual([3, 1, 5, 2, 4]);
  });

  it('orders ISO dates and identifiers by their characters', () => {
    expect(ids('date', false)).toEqual([4, 1, 2, 5, 3]);
    expect(ids('atm', true)).toEqual([2, 5, 3, 4, 1]);
  });

  it('leaves the rows as they came without an order, and never sorts them in place', () => {
    const before = rows.map((r) => r.id);
    expect(sortedRows(rows, undefined, () => 0).map((r) => r.id)).toEqual(before);
    ids('amount', true);
    expect(rows.map((r) => r.id)).toEqual(before);
  });
});
