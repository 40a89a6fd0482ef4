// Export to CSV / Excel of the whole filtered set: the server streams the file, the browser saves
// it. A long export shows what has arrived and can be cancelled; an empty set is said, not saved.
import { useRef, useState } from 'react';
import { downloadEjExport, type ExportProgress, type QueryParams } from '@ejdesk/api-client';
import { exportFiles, nothingToExport, saveFile, type EjListKind } from '@ejdesk/export';
import { Button, notify } from '@ejdesk/ui';
import styles from './ej-export.module.css';

const names = { dispute: exportFiles.ejError, overage: exportFiles.overage, succeeding: exportFiles.succeeding };
const formatNames = { csv: 'CSV', xlsx: 'Excel' };

function progressText({ bytes, rows }: ExportProgress): string {
  if (rows !== null) return `${rows.toLocaleString()} rows`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** `count`: the records the list holds with these filters, when known (0 means nothing to export). */
export function ExportButtons({ kind, filters = {}, count }: { kind: EjListKind; filters?: QueryParams; count?: number | undefined }) {
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef<AbortController | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    if (count === 0) {
      notify.info(nothingToExport);
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    setBusy(format);
    setProgress(null);
    try {
      const file = await downloadEjExport({ ...filters, kind, format }, { signal: controller.signal, onProgress: setProgress });
      saveFile(names[kind][format], file, file.type);
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
      <Button onClick={() => void run('csv')}>Export to CSV</Button>
      <Button onClick={() => void run('xlsx')}>Export to Excel</Button>
    </>
  );
}
