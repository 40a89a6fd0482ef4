// PDF text through unpdf (pdf.js). A protected PDF is opened with the stored password of the
// sender's bank; the text's lines are then read like any delimited text.
import { extractText, getDocumentProxy } from 'unpdf';
import { limits } from '../limits.ts';
import { ExtractionError } from './zip.ts';

export async function pdfText(bytes: Uint8Array, passwords: readonly string[]): Promise<string> {
  let lastError: unknown;
  for (const password of [undefined, ...passwords]) {
    try {
      // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy each time.
      const doc = await getDocumentProxy(new Uint8Array(bytes), { password, isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
      try {
        if (doc.numPages > limits.pdfPages) throw new ExtractionError(`the PDF has ${doc.numPages} pages (limit ${limits.pdfPages})`);
        const { text } = await extractText(doc, { mergePages: false });
        return text.join('\n');
      } finally {
        await doc.destroy();
      }
    } catch (err) {
      if (err instanceof ExtractionError) throw err;
      lastError = err;
      if ((err as Error)?.name !== 'PasswordException') break;
    }
  }
  if ((lastError as Error)?.name === 'PasswordException') {
    throw new ExtractionError(
      passwords.length === 0
        ? "the PDF is password-protected and no password is stored for the sender's bank"
        : 'the PDF is password-protected and the stored password does not open it',
    );
  }
  throw new ExtractionError(`not a readable PDF (${(lastError as Error)?.message ?? 'unknown error'})`);
}
