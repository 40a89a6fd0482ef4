// One process reading a ZIP of journals as the ingester reads an operator's archive from a folder
// (openAsBlob: the archive stays on disk, one entry inflated at a time) and parsing each entry:
// MB/s and this process's peak RSS, which says whether memory stays flat however big the archive.
// Run by bench/zip.ts with the archive's path; prints one line.
import { openAsBlob, statSync } from 'node:fs';
import { parseJournal } from '@ejdesk/journal';
import { folderBounds, unzipEach } from '../src/extract/zip.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: zip-journals.ts ARCHIVE.zip');
const archiveMb = statSync(file).size / 2 ** 20;
let entries = 0;
let inflated = 0;
let transactions = 0;
let notJournals = 0;
/** RSS sampled after each entry: the largest, and the one a tenth of the way in (after warming up). */
let peak = 0;
let early = 0;
const started = performance.now();
for await (const entry of unzipEach(await openAsBlob(file), [], folderBounds)) {
  inflated += entry.data.length;
  const parsed = await parseJournal(entry.data, { fileName: entry.name });
  if (parsed) transactions += parsed.transactions.length;
  else notJournals++;
  entries++;
  const rss = process.memoryUsage.rss();
  peak = Math.max(peak, rss);
  if (entries === 500) early = rss;
}
const seconds = (performance.now() - started) / 1000;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
console.log(
  `a ${archiveMb.toFixed(0)} MB ZIP of ${entries.toLocaleString('en')} journals (${mb(inflated)} MB inflated, ` +
    `${transactions.toLocaleString('en')} transactions${notJournals ? `, ${notJournals} not journals` : ''}): ${seconds.toFixed(0)} s, ` +
    `${(inflated / 2 ** 20 / seconds).toFixed(1)} MB/s inflated and parsed; RSS after 500 journals ${mb(early)} MB, ` +
    `peak RSS ${mb(peak)} MB (sampled after each journal; ${mb(process.resourceUsage().maxRSS * 1024)} MB by the kernel)`,
);
