// /email: the EJ error table. Filters are typed freely and applied together with Apply Filters;
// the applied ones live in the URL and the list returns to page 1. The turnaround quick filters
// (Open, Breached, ...) apply at a click; each row's status opens its dispute's story. Rows ticked
// (their disputes, across pages) take a status together; a change of filters clears the ticks.
// The journal's verdict is a column and a filter; beside the bulk status, the suggestion its
// verdict makes is applied to all matching, and their evidence packs come as one ZIP.
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getEjPage, loadFailure, verdictLabels, verdicts, type DisputeRecord, type Verdict } from '@ejdesk/api-client';
import {
  Button,
  Card,
  ChoiceField,
  DataTable,
  DateField,
  FilterChips,
  Page,
  lastPageOf,
  Pager,
  TextField,
  TotalRecords,
  useColumnChoice,
  useListState,
  useSorting,
  type RowAction,
  type RowSelection,
} from '@ejdesk/ui';
import { BulkEvidence, BulkFollowUp, BulkStatus, disputesOf, keepTrail, QuickFilters, tatChoices, UndoLastChange, useLastChange } from '../disputes/index.ts';
import { ExportButtons } from '../ej-export/index.ts';
import styles from './ej-table.module.css';
import { disputeTableColumns } from './columns.tsx';

const filterFields = [
  { name: 'start_date', label: 'Start Date', type: 'date' },
  { name: 'end_date', label: 'End Date', type: 'date' },
  { name: 'atm_id', label: 'ATM ID', type: 'text' },
  { name: 'bank_name', label: 'Bank Name', type: 'text' },
  { name: 'card_no', label: 'Card No.', type: 'text' },
  { name: 'mail_subject', label: 'Mail Subject', type: 'text' },
  { name: 'mail_received_from', label: 'Mail Received From', type: 'text' },
] as const;
/** The dispute clock's filters: a quick filter, and an age range (the dashboard's ageing card sets it). */
const clockFilters = [
  { name: 'tat', label: 'Turnaround', shown: (v: string) => tatChoices.find((c) => c.value === v)?.label ?? v },
  { name: 'age_from', label: 'Age from (days)', shown: (v: string) => v },
  { name: 'age_to', label: 'Age to (days)', shown: (v: string) => v },
] as const;
/** The journal's verdict on the record's dispute: chosen in the form, applied with the others. */
const verdictField = { name: 'verdict', label: 'Verdict' } as const;
const verdictChoices = [{ value: '', label: 'Any' }, ...verdicts.map((v) => ({ value: v, label: verdictLabels[v] }))];
const verdictShown = (value: string) => verdictLabels[value as Verdict] ?? value;
/** The operator's own work (Mine, Follow up today): quick filters too. */
const workFilters = [
  { name: 'owner', label: 'Owner', shown: (v: string) => (v === 'me' ? 'me' : `account ${v}`) },
  { name: 'follow_up', label: 'Follow up', shown: (v: string) => (v === 'today' ? 'today' : 'today or before') },
] as const;
const filterNames = [...filterFields.map((f) => f.name), verdictField.name, ...clockFilters.map((f) => f.name), ...workFilters.map((f) => f.name)];

const isOpenOnly = (tat: string) => ['open', 'breached', 'due_today', 'due_soon'].includes(tat);

/**
 * The order a quick filter brings: Breached by days late; a filter that takes in resolved disputes
 * drops a days-late order (they stopped counting); else the order stays (undefined).
 */
const orderingFor = (tat: string, ordering: string) =>
  tat === 'breached' ? '-days_late' : !isOpenOnly(tat) && ordering.replace(/^-/, '') === 'days_late' ? '' : undefined;

/** ATM ID and the clock stay in sight while the table scrolls sideways. */
const pinnedClock = ['ATM ID', 'Status', 'Due Date'];

export function EjTablePage() {
  const state = useListState(filterNames);
  const [draft, setDraft] = useState(state.filters);
  // The URL can change under the form (back button, a shared link): show what is applied.
  const [applied, setApplied] = useState(state.filters);
  // The disputes ticked, by id (the same dispute on two rows is one tick), for the filters they
  // were ticked under: a page turn keeps them, other filters clear them.
  const filtersKey = JSON.stringify(state.filters);
  const [ticks, setTicks] = useState<{ filters: string; ids: ReadonlySet<number> }>({ filters: filtersKey, ids: new Set() });
  const ticked = useMemo(() => (ticks.filters === filtersKey ? ticks.ids : new Set<number>()), [ticks, filtersKey]);
  const setTicked = (change: (now: ReadonlySet<number>) => ReadonlySet<number>) => setTicks({ filters: filtersKey, ids: change(ticked) });
  if (applied !== state.filters) {
    setApplied(state.filters);
    setDraft(state.filters);
  }
  const selection: RowSelection<DisputeRecord> = {
    isSelected: (row) => row.dispute_id !== null && ticked.has(row.dispute_id),
    onChange: (rows, on) =>
      setTicked((now) => {
        const next = new Set(now);
        for (const row of rows) if (row.dispute_id !== null) next[on ? 'add' : 'delete'](row.dispute_id);
        return next;
      }),
    label: (row) => `Select the dispute of ATM ${row.atm_id}, transaction ${row.txt_no}`,
    canSelect: (row) => row.dispute_id !== null,
  };
  // `s` sets the status of the ticked rows, else of the focused row's dispute.
  const [asked, setAsked] = useState<number[] | null>(null);
  const lastChange = useLastChange();
  const actions = useMemo<RowAction<DisputeRecord>[]>(
    () => [
      { key: 'u', label: 'Undo the last status change (for ten minutes)', run: () => lastChange.undo() },
      {
        key: 's',
        label: 'Set the status of the ticked rows (none ticked: the focused row)',
        run: (focused) => {
          if (ticked.size) setAsked([...ticked]);
          else if (focused?.dispute_id) setAsked([focused.dispute_id]);
        },
      },
    ],
    [ticked, lastChange],
  );
  const params = { page: state.page, page_size: state.pageSize, ...state.filters, ...(state.ordering ? { ordering: state.ordering } : {}) };
  // Newest extracted first unless a header asks otherwise ('-id' is no column: no arrow shows).
  const { sorting, sortBy } = useSorting(state.ordering, state.setOrdering, '-id');
  const query = useQuery({
    queryKey: ['ej-records', params],
    queryFn: ({ signal }) => getEjPage(params, signal),
    placeholderData: keepPreviousData,
  });
  // The verdict beside the amounts it speaks of, where an operator reads a row.
  const openOnly = isOpenOnly(applied.tat);
  const columns = useMemo(() => disputeTableColumns(openOnly), [openOnly]);
  const choice = useColumnChoice('email', columns, pinnedClock);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    state.setFilters(draft);
  };
  const typed = [...filterFields, verdictField].filter((f) => draft[f.name] !== applied[f.name]);
  const appliedChips = [
    ...filterFields.filter((f) => applied[f.name]).map((f) => ({ ...f, value: applied[f.name] })),
    ...(applied.verdict ? [{ ...verdictField, value: verdictShown(applied.verdict) }] : []),
    ...clockFilters.filter((f) => applied[f.name]).map((f) => ({ name: f.name, label: f.label, value: f.shown(applied[f.name]) })),
    ...workFilters.filter((f) => applied[f.name]).map((f) => ({ name: f.name, label: f.label, value: f.shown(applied[f.name]) })),
  ];
  const pendingId = useId();
  const described = appliedChips.length ? appliedChips.map((c) => `${c.label}: ${c.value}`).join('; ') : null;
  const count = query.isPlaceholderData ? undefined : query.data?.count;
  const totalPages = query.data ? query.data.total_pages || Math.ceil(query.data.count / state.pageSize) : 1;
  const exact = query.data?.count_exact !== false;
  // A change to (or the evidence of, or an export of) every matching dispute names the exact count,
  // never an estimate: under one it is counted exactly (the server keeps it for Last too).
  const exactCount = useQuery({
    queryKey: ['ej-records-exact-count', state.filters],
    queryFn: ({ signal }) => getEjPage({ ...state.filters, page: 'last', page_size: 100 }, signal),
    enabled: !exact && count !== undefined,
  });
  const allMatching = exact ? count : exactCount.data?.count;
  // Under an estimate the last page's number is unknown: the API counts exactly (page=last) and says it.
  const onLast = async () => {
    const last = await getEjPage({ ...params, page: 'last' });
    state.setPage(lastPageOf(last, state.pageSize));
  };
  // The page shown is the list a dispute opened from it steps through (Previous, Next, Back).
  const { search } = useLocation();
  const shown = query.isPlaceholderData ? undefined : query.data?.results;
  useEffect(() => {
    if (shown) keepTrail({ search, page: state.page, totalPages, ids: disputesOf(shown) });
  }, [shown, search, state.page, totalPages]);

  return (
    <Page
      title="EJ Error Data"
      actions={
        <>
          <UndoLastChange />
          <BulkStatus
            filters={state.filters}
            count={allMatching}
            described={described}
            selected={[...ticked]}
            onClearSelection={() => setTicked(() => new Set())}
            asked={asked}
            onAsked={() => setAsked(null)}
          />
          <BulkFollowUp selected={[...ticked]} />
          <BulkEvidence filters={state.filters} count={allMatching} described={described} />
          <ExportButtons kind="dispute" filters={state.filters} count={allMatching} ticked={[...ticked]} />
        </>
      }
    >
      <Card>
        <form className="ej-filters" role="search" aria-label="Filter EJ error data" onSubmit={apply}>
          {filterFields.map((field) => {
            const pending = draft[field.name] !== applied[field.name];
            const shared = {
              label: field.label,
              name: field.name,
              className: pending ? styles.pendingField : undefined,
              'aria-describedby': pending ? pendingId : undefined,
            };
            return field.type === 'date' ? (
              <DateField key={field.name} {...shared} value={draft[field.name]} onChange={(value) => setDraft((d) => ({ ...d, [field.name]: value }))} />
            ) : (
              <TextField key={field.name} {...shared} value={draft[field.name]} onChange={(e) => setDraft((d) => ({ ...d, [field.name]: e.target.value }))} />
            );
          })}
          <ChoiceField
            label={verdictField.label}
            name={verdictField.name}
            value={draft.verdict}
            options={verdictChoices}
            onChange={(value) => setDraft((d) => ({ ...d, verdict: value }))}
          />
          <Button type="submit" variant="primary">
            Apply Filters
          </Button>
          <TotalRecords count={query.data?.count} exact={exact} />
          {typed.length > 0 && (
            <p id={pendingId} className={styles.pending} role="status">
              Typed, not applied yet: {typed.map((f) => f.label).join(', ')}. Press Apply Filters to apply.
            </p>
          )}
        </form>
        <QuickFilters
          value={applied.tat}
          onChange={(tat) => state.setFilters({ tat }, orderingFor(tat, state.ordering))}
          work={{ owner: applied.owner, follow_up: applied.follow_up }}
          onWork={(name, value) => state.setFilters({ [name]: value })}
        />
        <FilterChips applied={appliedChips} onRemove={(name) => state.setFilters({ [name]: '' })} onClear={state.reset} />
        <DataTable
          caption="EJ error data"
          columns={columns}
          rows={query.data?.results}
          loading={query.isFetching}
          error={query.isError ? loadFailure('EJ error data', query.error) : null}
          onRetry={() => void query.refetch()}
          skeletonRows={10}
          sorting={sorting}
          onSort={sortBy}
          choice={choice}
          views={{ list: 'email', params: [...filterNames, 'ordering', 'page_size'] }}
          paging={{ page: state.page, totalPages, onPage: state.setPage }}
          selection={selection}
          actions={actions}
        />
        <Pager
          page={state.page}
          totalPages={totalPages}
          onPage={state.setPage}
          pageSize={state.pageSize}
          onPageSize={state.setPageSize}
          sizeLabel={(n) => String(n)}
          exact={exact}
          onLast={() => void onLast()}
        />
      </Card>
    </Page>
  );
}
