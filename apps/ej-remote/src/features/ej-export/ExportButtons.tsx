// Export to CSV / Excel of the whole filtered set: the server streams the file, the browser saves it.
import { useState } from 'react';
import { getEjExport, type QueryParams } from '@ejdesk/api-client';
import { exportFiles, saveFile, type EjListKind } from '@ejdesk/export';
import { Button, notify } from '@ejdesk/ui';

const names = { dispute: exportFiles.ejError, overage: exportFiles.overage, succeeding: exportFiles.succeeding };

export function ExportButtons({ kind, filters = {} }: { kind: EjListKind; filters?: QueryParams }) {
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      const file = await getEjExport({ ...filters, kind, format });
      saveFile(names[kind][format], file, file.type);
    } catch (error) {
      console.error('Export failed', error);
      notify.error('The export failed. Please try again.');
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Button onClick={() => void run('csv')} loading={busy === 'csv'} disabled={busy !== null}>
        Export to CSV
      </Button>
      <Button onClick={() => void run('xlsx')} loading={busy === 'xlsx'} disabled={busy !== null}>
        Export to Excel
      </Button>
    </>
  );
}
