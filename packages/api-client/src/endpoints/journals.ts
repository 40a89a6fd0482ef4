// Electronic journals and the evidence they give disputes: the Journals list, one journal and a
// range of its lines, an upload (with its progress), a dispute's evidence pack (one PDF, or a ZIP
// of all matching) and applying the suggestion its verdict makes (one dispute, or all matching).
import { journalPaths, type Answer } from '@ejdesk/contract';
import type * as disputes from '@ejdesk/contract/schemas/disputes.ts';
import type * as journals from '@ejdesk/contract/schemas/journals.ts';
import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

export type JournalItem = Answer<typeof journals.JournalItem>;
export type JournalDetail = Answer<typeof journals.JournalDetail>;
export type JournalTransaction = Answer<typeof journals.JournalTransaction>;
export type JournalLines = Answer<typeof journals.JournalLines>;
export type JournalUpload = Answer<typeof journals.JournalUpload>;
export type Evidence = Answer<typeof journals.Evidence>;
export type ApplySuggestionAnswer = Answer<typeof disputes.ApplySuggestionAnswer>;
export type { AnomalyKind, MatchKind, Verdict } from '@ejdesk/contract';
export { anomalyKinds, matchKinds, verdictLabels, verdicts } from '@ejdesk/contract';

export const getJournalPage = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<JournalItem>>(journalPaths.journals, { params: cleanParams(params), signal })).data;

export const getJournal = async (id: number | string, signal?: AbortSignal) =>
  (await http.get<JournalDetail>(journalPaths.journal(Number(id)), { signal })).data;

/** Lines from..to (1-based, as in the file), at most maxLinesAsked at once. */
export const getJournalLines = async (id: number, from: number, to: number, signal?: AbortSignal) =>
  (await http.get<JournalLines>(journalPaths.lines(id), { params: { from, to }, signal })).data;

/** A journal file sent as the ATM wrote it; `onProgress` gets the share sent (0 to 1). */
export async function uploadJournal(file: Blob, fileName: string, options: { onProgress?: (share: number) => void; signal?: AbortSignal } = {}) {
  const body = new FormData();
  body.append('file', file, fileName);
  const response = await http.post<JournalUpload>(journalPaths.journals, body, {
    signal: options.signal,
    onUploadProgress: (event) => options.onProgress?.(event.total ? event.loaded / event.total : 0),
  });
  return response.data;
}

/** The file name a download's answer gives (content-disposition), else the fallback. */
function fileNameOf(disposition: unknown, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(String(disposition ?? ''));
  return match?.[1] ?? fallback;
}

/** A dispute's evidence pack, made by the server: the PDF and its file name. */
export async function downloadEvidencePdf(disputeId: number): Promise<{ file: Blob; fileName: string }> {
  const response = await http.get<Blob>(journalPaths.evidencePdf(disputeId), { responseType: 'blob' });
  return { file: response.data, fileName: fileNameOf(response.headers['content-disposition'], `evidence-${disputeId}.pdf`) };
}

/** The packs of every dispute the EJ table's filters match (or of the ids), as one ZIP. */
export async function downloadEvidenceZip(target: { ids: number[] } | { filters: QueryParams }, signal?: AbortSignal) {
  const body = 'filters' in target ? { filters: cleanParams(target.filters) } : target;
  const response = await http.post<Blob>(journalPaths.evidenceZip, body, { responseType: 'blob', signal });
  return { file: response.data, fileName: fileNameOf(response.headers['content-disposition'], 'evidence.zip') };
}

/** One dispute's status and outcome as its verdict suggests (never over an operator's). */
export const applySuggestion = async (disputeId: number) => (await http.post<ApplySuggestionAnswer>(journalPaths.applySuggestion(disputeId), {})).data;

/** The suggestion applied to many disputes: the ids, or every record the table's filters match. */
export const applySuggestions = async (target: { ids: number[] } | { filters: QueryParams }) =>
  (await http.post<ApplySuggestionAnswer>(journalPaths.applySuggestions, 'filters' in target ? { filters: cleanParams(target.filters) } : target)).data;
