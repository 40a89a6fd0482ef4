// A dispute's journal evidence as the contract sends it, and its evidence pack (one PDF, or a ZIP
// of many streamed as they are made).
import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { Static } from 'typebox';
import yazl from 'yazl';
import { disputeEvidence, disputeStory, suggestionOf, type Db, type DisputeEvidence } from '@ejdesk/db';
import type { Evidence } from '@ejdesk/contract/schemas/journals.ts';
import { evidenceFileName, evidencePdf } from '../../lib/evidence-pdf.ts';

type Wire = Static<typeof Evidence>;

export const evidenceOf = (found: DisputeEvidence | null): Wire | null => {
  if (!found) return null;
  const suggestion = suggestionOf(found.verdict);
  const excerpt = (lines: DisputeEvidence['excerpt']) =>
    lines.map((line) => ({ number: line.no, text: line.text, evidence: line.evidence, journal_id: line.journal_id }));
  return {
    verdict: found.verdict as Wire['verdict'],
    reason: found.reason ?? '',
    at: found.at,
    matched_at: found.matched_at,
    requested_amount: found.requested_amount,
    dispensed_amount: found.dispensed_amount,
    match: found.match,
    candidates: found.candidates,
    journal: found.journal,
    lines: found.lines,
    continuation: found.continuation,
    excerpt: excerpt(found.excerpt),
    before: found.before.map((t) => ({ ...t, verdict: t.verdict as Wire['verdict'], excerpt: excerpt(t.excerpt) })),
    after: found.after.map((t) => ({ ...t, verdict: t.verdict as Wire['verdict'], excerpt: excerpt(t.excerpt) })),
    counters: found.counters as Wire['counters'],
    suggestion: suggestion && { status: suggestion.status, outcome: suggestion.outcome, advice: suggestion.advice },
  };
};

interface Pack {
  fileName: string;
  pdf: Buffer;
}

/** The dispute's evidence pack; null when there is no such dispute or it has no evidence yet. */
export async function evidencePack(db: Db, disputeId: number, today: string, madeBy: string, madeAt = new Date()): Promise<Pack | null> {
  const [story, found] = await Promise.all([disputeStory(db, disputeId, today), disputeEvidence(db, disputeId)]);
  const evidence = evidenceOf(found);
  if (!story || !evidence) return null;
  return { fileName: evidenceFileName(story), pdf: await evidencePdf({ story, evidence, madeBy, madeAt }) };
}

/**
 * A ZIP of the packs of `disputeIds` (batches of ids, read as needed), written as the client reads:
 * a pack is made only once the output has room for it (the response, piped from it, pauses it
 * while the socket is full), and nothing more is read or made once the client has gone (the output
 * closed). PDFs are stored, not deflated: they are compressed already.
 */
export function evidenceZip(
  disputeIds: AsyncIterable<number[]>,
  makePack: (id: number) => Promise<Pack | null>,
  onPack: () => void = () => undefined,
): { stream: Readable; finished: Promise<{ packs: number }> } {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  const input = zip.outputStream as unknown as NodeJS.WritableStream & { writableNeedDrain: boolean };
  let closed = false;
  output.once('close', () => (closed = true));
  const room = async () => {
    // The event loop's turn first: an in-process database answers without one, and the socket
    // would be written (and a client's leaving seen) only once every pack was made.
    await setImmediate();
    while (!closed && input.writableNeedDrain) await Promise.race([once(input, 'drain'), once(output, 'close')]);
  };
  const names = new Set<string>();
  const finished = (async () => {
    let packs = 0;
    try {
      for await (const batch of disputeIds) {
        for (const id of batch) {
          if (closed) return { packs };
          const pack = await makePack(id);
          if (!pack || closed) continue;
          // Two disputes of one ATM and number would share a name: the second gets its id again.
          let name = pack.fileName;
          if (names.has(name)) name = name.replace(/\.pdf$/, `-${id}.pdf`);
          names.add(name);
          zip.addBuffer(pack.pdf, name, { compress: false, mtime: new Date() });
          packs++;
          onPack();
          await room();
        }
      }
      if (!closed) zip.end();
      return { packs };
    } catch (error) {
      output.destroy(error as Error);
      return { packs };
    }
  })();
  return { stream: output, finished };
}
