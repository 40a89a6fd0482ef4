// /journals: every electronic journal received (by mail, upload or folder) with its ATM, day,
// family, transactions and anomalies, newest first; filters by ATM, day and anomaly kept in the URL
// like the other lists. A journal dropped anywhere on the screen, or chosen with the file button,
// is uploaded; each file's answer is said under the button.
import { anomalyKinds, getJournalPage, isNotFound, loadFailure, type JournalItem } from '@ejdesk/api-client';
import { formatDateTime, formatShortDate, PaginatedListPage, TextLink, type ColumnDef, type FilterDef } from '@ejdesk/ui';
import { JournalDrop, JournalUploader, useJournalUploads } from './upload.tsx';
import { anomalyLabels } from './words.tsx';
import styles from './journals.module.css';

const filters: FilterDef[] = [
  { name: 'atm_id', label: 'ATM ID', type: 'text' },
  { name: 'day', label: 'Day', type: 'date' },
  {
    name: 'anomaly',
    label: 'Anomaly',
    type: 'choice',
    options: [{ value: '', label: 'Any' }, ...anomalyKinds.map((kind) => ({ value: kind, label: anomalyLabels[kind] }))],
  },
];
const sourceLabels = { mail: 'Mail', upload: 'Upload', folder: 'Folder' } as const;

const columns: ColumnDef<JournalItem, unknown>[] = [
  {
    id: 'File',
    header: 'File',
    accessorFn: (row) => row.file_name,
    cell: (c) => <TextLink to={`/journals/${c.row.original.id}`}>{c.row.original.file_name}</TextLink>,
  },
  { id: 'ATM ID', header: 'ATM ID', accessorFn: (row) => row.atm_id ?? '—', meta: { nowrap: true } },
  { id: 'Day', header: 'Day', accessorFn: (row) => (row.day ? formatShortDate(row.day) : '—'), meta: { nowrap: true } },
  { id: 'Family', header: 'Family', accessorFn: (row) => row.family.toUpperCase(), meta: { nowrap: true } },
  { id: 'Transactions', header: 'Transactions', accessorFn: (row) => row.transaction_count.toLocaleString('en-US'), meta: { numeric: true } },
  {
    id: 'Anomalies',
    header: 'Anomalies',
    accessorFn: (row) => (row.anomaly_count === 0 ? 'None' : `${row.anomaly_count}: ${row.anomaly_kinds.map((k) => anomalyLabels[k]).join(', ')}`),
  },
  { id: 'Lines', header: 'Lines', accessorFn: (row) => row.line_count.toLocaleString('en-US'), meta: { numeric: true } },
  { id: 'Source', header: 'Source', accessorFn: (row) => sourceLabels[row.source], meta: { nowrap: true } },
  { id: 'Received', header: 'Received', accessorFn: (row) => formatDateTime(row.create_at), meta: { nowrap: true } },
];

export function JournalsPage() {
  const { uploads, send } = useJournalUploads();
  return (
    <JournalDrop onFiles={send}>
      <PaginatedListPage
        title="Journals"
        table="journals"
        queryKey="journals"
        filters={filters}
        columns={columns}
        load={getJournalPage}
        total="inline"
        describeFailure={(error) => loadFailure('journals', error)}
        isNotFound={isNotFound}
        emptyText="No journals yet: they arrive by mail, or drop one here."
        header={
          <div className={styles.uploadBar}>
            <JournalUploader uploads={uploads} onFiles={send} />
          </div>
        }
      />
    </JournalDrop>
  );
}
