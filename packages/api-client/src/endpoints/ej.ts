import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';
import type { DisputeRecord } from './disputes.ts';

// The EJ record type is defined once, beside the export columns that read it.
import type { EjRecord } from '@ejdesk/export';

export type { EjRecord };

/** A page of the dispute table: each record with its dispute's clock. */
export const getEjPage = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<DisputeRecord>>('/scrape/extract/email/data/pagination/', { params: cleanParams(params), signal })).data;

export const getEjFileRecords = async (kind: 'overage' | 'succeeding') => (await http.get<EjRecord[]>(`/scrape/extract/${kind}/data/`)).data;

export interface ExportProgress {
  bytes: number;
  /** Rows received so far (CSV: its line ends, less the header); null for XLSX, which is compressed. */
  rows: number | null;
}

/**
 * The whole filtered set, streamed by the server as CSV or XLSX and read as it arrives (through
 * axios's fetch adapter, so the session's refresh still applies): progress as it goes, and the
 * signal stops it (the server stops reading the database when the client leaves).
 */
export async function downloadEjExport(
  params: QueryParams & { format: 'csv' | 'xlsx'; kind: 'dispute' | 'overage' | 'succeeding' },
  options: { signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void } = {},
): Promise<Blob> {
  const response = await http.get<ReadableStream<Uint8Array>>('/scrape/extract/export/', {
    params: cleanParams(params),
    adapter: 'fetch',
    responseType: 'stream',
    signal: options.signal,
  });
  const reader = response.data.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lineEnds = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    if (params.format === 'csv') for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lineEnds++;
    options.onProgress?.({ bytes, rows: params.format === 'csv' ? Math.max(0, lineEnds - 1) : null });
  }
  return new Blob(chunks as BlobPart[], { type: String(response.headers['content-type'] ?? '') });
}
