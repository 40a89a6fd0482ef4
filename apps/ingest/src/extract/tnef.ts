// Outlook's TNEF (winmail.dat, application/ms-tnef): not opened yet. Said as the file's failure,
// so the message shows in Mail Flow with the reason instead of passing as a file without rows.
import { ExtractionError } from './zip.ts';

export function tnefAttachments(_bytes: Uint8Array): { name: string; data: Buffer }[] {
  throw new ExtractionError('Outlook’s TNEF wrapping (winmail.dat) is not opened yet: the files inside it were not read');
}
