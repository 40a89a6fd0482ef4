// A list's filters and the chips of those applied, one model for every list: text applied after a
// pause in typing, a day or a choice at once, each applied filter a chip to remove, all in the URL.
// Paged lists send them to the API (PaginatedListPage); lists held whole filter in the browser
// (useWholeList), the same way the API would.
import { useMemo, type ReactNode } from 'react';
import type { ListState } from '../list-state.ts';
import { sortedRows, useSorting } from '../sorting.ts';
import { useListState } from '../list-state.ts';
import { ChoiceField } from './Field.tsx';
import { FilterChips } from './FilterChips.tsx';
import { FilterInput } from './FilterInput.tsx';

export type FilterDef = {
  /** The query parameter, in the URL and to the API. */
  name: string;
  label: string;
} & (
  | { type: 'text' | 'date' | 'month' }
  /** One of a few words, applied when chosen; the first option (value '') is "any". */
  | { type: 'choice'; options: readonly { value: string; label: string }[] }
);

/** What a choice's chip says: the option's words (a value no option has, as it is). */
const shownValue = (filter: { options: readonly { value: string; label: string }[] }, value: string) =>
  filter.options.find((o) => o.value === value)?.label ?? value;

export function FilterBar({
  title,
  filters,
  state,
  clearable = true,
  children,
}: {
  title: string;
  filters: readonly FilterDef[];
  state: ListState<string>;
  /** Chips end with Clear (a list with its own Reset Filters button has none). */
  clearable?: boolean;
  /** After the filters: the total, a reset button. */
  children?: ReactNode;
}) {
  return (
    <>
      <div className="ej-filters" role="search" aria-label={`Filter ${title}`}>
        {filters.map((filter) =>
          filter.type === 'choice' ? (
            <ChoiceField
              key={filter.name}
              label={filter.label}
              name={filter.name}
              value={state.filters[filter.name] ?? ''}
              options={filter.options}
              onChange={(value) => state.setFilters({ [filter.name]: value })}
            />
          ) : (
            <FilterInput
              key={filter.name}
              label={filter.label}
              type={filter.type}
              value={state.filters[filter.name] ?? ''}
              onType={(value) => state.typeFilter(filter.name, value)}
              onCommit={(value) => state.setFilters({ [filter.name]: value })}
              resets={state.resets}
            />
          ),
        )}
        {children}
      </div>
      <FilterChips
        applied={filters
          .filter((f) => state.filters[f.name])
          .map((f) =>
            f.type === 'choice'
              ? { name: f.name, label: f.label, value: shownValue(f, state.filters[f.name]!) }
              : { name: f.name, label: f.label, type: f.type, value: state.filters[f.name]! },
          )}
        onRemove={(name) => state.setFilters({ [name]: '' })}
        onClear={clearable ? state.reset : undefined}
      />
    </>
  );
}

/** A filter of a list held whole: `test` says whether a row passes it with the value applied. */
export type WholeFilter<Row> = FilterDef & { test: (row: Row, value: string) => boolean };

/** A text filter as the API reads one: the field contains the text, in any case. */
export const containsFilter =
  <Row,>(read: (row: Row) => string | null | undefined) =>
  (row: Row, value: string) =>
    (read(row) ?? '').toLowerCase().includes(value.trim().toLowerCase());

/** A day filter: the row's day (YYYY-MM-DD..., a date or a timestamp) on or after, or on or before, the day. */
export const dayFilter =
  <Row,>(read: (row: Row) => string | null | undefined, side: 'from' | 'to') =>
  (row: Row, value: string) => {
    const day = (read(row) ?? '').slice(0, 10);
    return day !== '' && (side === 'from' ? day >= value : day <= value);
  };

/**
 * A list held whole (every row loaded), filtered and sorted in the browser by the same URL state a
 * paged list sends to the API: its rows shown, the state for FilterBar, and the table's sorting.
 */
export function useWholeList<Row>(rows: readonly Row[] | undefined, filters: readonly WholeFilter<Row>[], read: (row: Row, key: string) => unknown) {
  const names = useMemo(() => filters.map((f) => f.name), [filters]);
  const state = useListState(names);
  const { sorting, sortBy } = useSorting(state.ordering, state.setOrdering);
  const applied = state.filters;
  const shown = useMemo(() => {
    if (!rows) return undefined;
    const active = filters.filter((f) => applied[f.name]);
    const kept = active.length ? rows.filter((row) => active.every((f) => f.test(row, applied[f.name]!))) : rows;
    return sortedRows(kept, sorting, read);
  }, [rows, filters, applied, sorting, read]);
  return { state: state as ListState<string>, shown, sorting, sortBy };
}
