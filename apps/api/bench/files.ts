// File data at 1,000,000 files (BENCH_FILES), a seventh of them text files: a paginated file list (no
// filter, each filter, a deep page, every order) and the detail of a file with 5,000 rows, over
// HTTP and straight on the database. The lists never read a file's extracted rows, so the seeded
// files have none (22,000,000 rows would only lengthen the seed); the detail's file has its own.
import { sql } from 'drizzle-orm';
import { dataFileRows, dataFiles, findDataFileWithLabelledRows, listDataFiles, queryRows, type DataFileFilters, type DataFileOrder } from '@ejdesk/db';
import { openBench, report } from './harness.ts';

const wanted = Number(process.env.BENCH_FILES ?? 1_000_000);
const bench = await openBench('data_files', wanted, (missing) => ({ filesPerKind: Math.ceil(missing / 7), fileRows: false }));
const db = bench.database.db;

// One text file with 5,000 rows, made once.
const bigName = 'bench_5000_rows.txt';
let [big] = await db
  .select({ id: dataFiles.id })
  .from(dataFiles)
  .where(sql`${dataFiles.name} = ${bigName}`);
if (!big) {
  [big] = await db.insert(dataFiles).values({ kind: 'text', name: bigName, subjectName: 'bench: a file of 5,000 rows' }).returning({ id: dataFiles.id });
  for (let start = 0; start < 5000; start += 1000) {
    await db.insert(dataFileRows).values(
      Array.from({ length: 1000 }, (_, i) => ({
        dataFileId: big!.id,
        position: start + i + 1,
        atmId: `APX${String(start + i).padStart(5, '0')}`,
        cardNo: `412345XXXXXX${1000 + ((start + i) % 9000)}`,
        txtNo: String(100000 + start + i),
        txtDate: '2026-01-07',
        txtAmt: '1500.00',
        disputeAmt: '500.00',
        overage: '0.00',
        mspRemarks: 'Refund processed',
        mspRefNo: `REF${start + i}`,
        shortDesc: 'CASH NOT DISPENSED',
        ejError: 'Cash retracted after timeout',
        complaintDate: '2026-01-09',
        shortDescription: 'cash not dispensed at ATM',
        mailReceivedFrom: 'disputes@atlas-atm.example',
        mailSubject: 'text data Apex Bank',
        responseCode: '91',
      })),
    );
  }
}
const [{ files, rows } = { files: 0, rows: 0 }] = await queryRows<{ files: number; rows: number }>(
  db,
  sql`select (select count(*) from data_files)::int as files, (select count(*) from data_file_rows)::int as rows`,
);
const list = '/api/scrape/text/email/data/pagination/';
const page = { page: 1, pageSize: 10 };
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
const today = new Date().toISOString().slice(0, 10);
// BENCH_ONLY=sorted: oldest first (ordering=create_at), unfiltered and with each filter alone.
if (process.env.BENCH_ONLY !== 'sorted')
  await report(bench, `File data at ${files.toLocaleString('en')} files (${rows.toLocaleString('en')} rows)`, [
    { name: 'text files, no filter', url: list, direct: () => listDataFiles(db, 'text', {}, page) },
    { name: 'text files, name=HRB', url: `${list}?name=HRB`, direct: () => listDataFiles(db, 'text', { name: 'HRB' }, page) },
    { name: 'text files, subject_name=harbor', url: `${list}?subject_name=harbor`, direct: () => listDataFiles(db, 'text', { subjectName: 'harbor' }, page) },
    // Broad values (every text file's name and subject hold them).
    { name: 'text files, name=txt (broad)', url: `${list}?name=txt`, direct: () => listDataFiles(db, 'text', { name: 'txt' }, page) },
    { name: 'text files, subject_name=data (broad)', url: `${list}?subject_name=data`, direct: () => listDataFiles(db, 'text', { subjectName: 'data' }, page) },
    { name: 'text files, page 1,000', url: `${list}?page=1000`, direct: () => listDataFiles(db, 'text', {}, { page: 1000, pageSize: 10 }) },
    {
      name: 'detail of a 5,000-row file',
      url: `/api/scrape/text/email/data/${big!.id}/`,
      direct: () => findDataFileWithLabelledRows(db, 'text', big!.id, 'Response Code'),
    },
  ]);
// Every other order a header can ask for (Data Creation oldest first, Last Update, Name), alone and
// under each filter, and deep.
const orders: DataFileOrder[] = [
  { field: 'create_at', descending: false },
  ...(['update_at', 'name'] as const).flatMap((field) => [
    { field, descending: false },
    { field, descending: true },
  ]),
];
const shapes: [name: string, query: string, filters: DataFileFilters, at?: { page: number; pageSize: number }][] = [
  ['no filter', '', {}],
  ['name=HRB', 'name=HRB', { name: 'HRB' }],
  ['subject_name=harbor', 'subject_name=harbor', { subjectName: 'harbor' }],
  ['name=txt (broad)', 'name=txt', { name: 'txt' }],
  ['created in the last week', `create_at_after=${weekAgo}&create_at_before=${today}`, { createdFrom: weekAgo, createdTo: today }],
  ['page 1,000', 'page=1000', {}, { page: 1000, pageSize: 10 }],
];
await report(
  bench,
  `File lists sorted (ordering=create_at, update_at, name), at ${files.toLocaleString('en')} files`,
  orders.flatMap((order) => {
    const ordering = `${order.descending ? '-' : ''}${order.field}`;
    return shapes.map(([name, query, filters, at]) => ({
      name: `${ordering}, ${name}`,
      url: `${list}?ordering=${ordering}${query ? `&${query}` : ''}`,
      direct: () => listDataFiles(db, 'text', filters, at ?? page, order),
    }));
  }),
);
await bench.close();
