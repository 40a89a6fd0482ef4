// Export to CSV / Excel of the whole filtered set, or of the ticked rows' disputes when rows are
// ticked: the server streams the file, the browser saves it under a name that says what it holds.
// A long export shows what has arrived and can be cancelled; an empty set is said, not saved.
import { useRef, useState } from 'react';
import { downloadEjExport, type ExportProgress, type QueryParams } from '@ejdesk/api-client';
import { exportFileName, exportFiles, nothingToExport, saveFile, type EjListKind } from '@ejdesk/export';
import { Button, notify } from '@ejdesk/ui';
import styles from './ej-export.module.css';

const names = { dispute: exportFiles.ejError, overage: exportFiles.overage, succeeding: exportFiles.succeeding };
const formatNames = { csv: 'CSV', xlsx: 'Excel' };

function progressText({ bytes, rows }: ExportProgress): string {
  if (rows !== null) return `${rows.toLocaleString()} rows`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** The most disputes an export of ticked rows names (they travel in the URL). */
const maxTicked = 1000;

/**
 * `count`: the records the list holds with these filters, when known (0 means nothing to export).
 * `ticked`: the disputes of the ticked rows; when there are any, only their records are exported.
 */
export function ExportButtons({
  kind,
  filters = {},
  count,
  ticked = [],
}: {
  kind: EjListKind;
  filters?: QueryParams;
  count?: number | undefined;
  ticked?: readonly number[];
}) {
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef<AbortController | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    if (count === 0 && ticked.length === 0) {
      notify.info(nothingToExport);
      return;
    }
    if (ticked.length > maxTicked) {
      notify.error(`An export takes at most ${maxTicked.toLocaleString()} ticked disputes; clear the ticks to export all that match.`);
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    setBusy(format);
    setProgress(null);
    try {
      const scope = ticked.length ? { disputes: ticked.join(',') } : {};
      const file = await downloadEjExport({ ...filters, ...scope, kind, format }, { signal: controller.signal, onProgress: setProgress });
      saveFile(exportFileName(names[kind][format], filters, ticked.length || undefined), file, file.type);
    } catch (error) {
      if (controller.signal.aborted) notify.info('Export cancelled.');
      else {
        console.error('Export failed', error);
        notify.error('The export failed. Please try again.');
      }
    } finally {
      running.current = null;
      setBusy(null);
      setProgress(null);
    }
  };
  if (busy) {
    return (
      <>
        <span className={styles.progress} role="status">
          <span className="ej-spinner" aria-hidden="true" />
          Exporting to {formatNames[busy]}… {progress ? `${progressText(progress)} so far` : 'starting'}
        </span>
        <Button onClick={() => running.current?.abort()}>Cancel export</Button>
      </>
    );
  }
  return (
    <>
      <Button onClick={() => void run('csv')}>{ticked.length ? `Export ${ticked.length.toLocaleString()} ticked to CSV` : 'Export to CSV'}</Button>
      <Button onClick={() => void run('xlsx')}>{ticked.length ? `Export ${ticked.length.toLocaleString()} ticked to Excel` : 'Export to Excel'}</Button>
    </>
  );
}
