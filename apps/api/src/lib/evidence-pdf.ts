// A dispute's evidence pack as a PDF (pdfkit): the dispute's fields, the verdict and what it rests
// on, the transaction's journal lines with their numbers as in the file received (the evidence
// lines marked), the three transactions before and after, the cassette counts, the journal's name
// and SHA-256, and when and by whom the pack was made. What a card network or the bank's own
// reviewers ask for, readable on paper and by pdftotext alike.
import PDFDocument from 'pdfkit';
import type { Static } from 'typebox';
import { verdictLabels, type Verdict } from '@ejdesk/contract';
import type { DisputeStory } from '@ejdesk/contract/schemas/disputes.ts';
import type { Evidence } from '@ejdesk/contract/schemas/journals.ts';

type Story = Omit<Static<typeof DisputeStory>, 'evidence'>;
type Pack = Static<typeof Evidence>;
type Line = Pack['excerpt'][number];

interface EvidencePdfInput {
  story: Story;
  evidence: Pack;
  /** Who asked for the pack (their e-mail address), and when. */
  madeBy: string;
  madeAt: Date;
}

const matchWords: Record<Pack['match'], string> = {
  rrn: 'by RRN',
  stan: 'by STAN',
  serial: "by the journal's transaction serial",
  card_amount_day: "by the card's last four digits, the amount and the day",
  ambiguous: 'several journal transactions fit: no verdict is given',
  none: 'no journal transaction fits',
};

const margin = 48;
const ink = '#111111';
const muted = '#555555';
const mark = '#fff2a8';

/**
 * The standard PDF fonts write Windows-1252 only: anything else is shown as '?', never as a wrong
 * glyph. Control characters (a journal's form feeds) are dropped.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const controls = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const winAnsiExtras = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const printable = (text: string): string =>
  [...text.replace(controls, '').replace(/\t/g, '    ')].map((c) => (c.charCodeAt(0) < 256 || winAnsiExtras.has(c) ? c : '?')).join('');

const verdictText = (verdict: Verdict | null | undefined) => (verdict ? verdictLabels[verdict] : 'None');
const amountText = (amount: string | null | undefined) => (amount === null || amount === undefined ? 'not known' : `Rs. ${amount}`);

/** The pack as a PDF, in memory: a pack is a few pages, and the ZIP needs each one's size. */
export function evidencePdf({ story, evidence, madeBy, madeAt }: EvidencePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    bufferPages: true,
    info: {
      Title: `Evidence for dispute ${story.id}`,
      Author: 'EJ Desk',
      Subject: `ATM ${story.atm_id}, transaction ${story.txt_no}`,
      CreationDate: madeAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * margin;

  const heading = (text: string) => {
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).fillColor(ink).text(printable(text), margin, undefined, { width });
    doc.moveDown(0.2);
  };
  const field = (label: string, value: string | null | undefined) => {
    doc
      .font('Helvetica-Bold')
      .fontSize(9.5)
      .fillColor(muted)
      .text(`${label}: `, margin, undefined, { continued: true, width })
      .font('Helvetica')
      .fillColor(ink)
      .text(printable(value === null || value === undefined || value === '' ? '-' : value));
  };
  /**
   * Journal lines in a fixed font: the number as in the file, '>>' and a band on the evidence. A
   * line is one line of the page (cut at the width, as a journal's 40-column lines never are):
   * laid out by position, not by the text engine, which is several times slower.
   */
  const lines = (excerpt: Line[]) => {
    const size = 8;
    const height = size * 1.25;
    const columns = Math.floor(width / (size * 0.6));
    const digits = Math.max(4, ...excerpt.map((l) => String(l.number).length));
    for (const line of excerpt) {
      const text = `${line.evidence ? '>>' : '  '} ${String(line.number).padStart(digits)}  ${printable(line.text)}`.slice(0, columns).trimEnd();
      if (doc.y + height > doc.page.height - margin - 20) doc.addPage();
      const y = doc.y;
      if (line.evidence) doc.rect(margin - 2, y - 1, width + 4, height).fill(mark);
      doc
        .fillColor(ink)
        .font(line.evidence ? 'Courier-Bold' : 'Courier')
        .fontSize(size)
        .text(text, margin, y, { lineBreak: false });
      doc.y = y + height;
    }
    doc.x = margin;
    doc.font('Helvetica');
  };

  doc.font('Helvetica-Bold').fontSize(16).fillColor(ink).text(`Dispute ${story.id}: journal evidence`, { width });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(muted)
    .text(printable(`Made ${madeAt.toISOString().replace('T', ' ').slice(0, 19)} UTC by ${madeBy}, from the journal EJ Desk received.`), { width });

  heading('The dispute');
  const row = story.rows[0];
  field('ATM ID', story.atm_id);
  field('Transaction number', story.txt_no);
  field('Card', story.card_no);
  field('Bank', story.bank_name);
  field('Transaction date', story.transaction_date);
  field('Transaction amount', row?.transaction_amt);
  field('Disputed amount', row?.dispute_amt);
  field('Complaint date', story.complaint_date);
  field('Status', `${story.status}${story.outcome ? ` (${story.outcome})` : ''}${story.due_date ? `, due ${story.due_date}` : ''}`);

  heading(`Verdict: ${verdictText(evidence.verdict)}`);
  if (evidence.reason) field('What it rests on', evidence.reason);
  field('Requested', amountText(evidence.requested_amount));
  field('Dispensed to the customer', amountText(evidence.dispensed_amount));
  field('Matched', `${matchWords[evidence.match]}${evidence.candidates > 1 ? ` (${evidence.candidates} candidates)` : ''}`);
  if (evidence.suggestion)
    field('Suggested', `${evidence.suggestion.status}${evidence.suggestion.outcome ? `, ${evidence.suggestion.outcome}` : ''}: ${evidence.suggestion.advice}`);

  heading('The journal');
  field('File', evidence.journal?.file_name);
  field('ATM ID', evidence.journal?.atm_id);
  field('Day', evidence.journal?.day);
  field('SHA-256', evidence.journal?.sha256);
  if (evidence.lines) field('Lines', `${evidence.lines.from} to ${evidence.lines.to}`);

  heading('The transaction (lines marked >> are those the verdict rests on)');
  if (evidence.excerpt.length) lines(evidence.excerpt);
  else field('Lines', 'none: no transaction matched');

  const near = (title: string, transactions: Pack['before']) => {
    heading(title);
    if (!transactions.length) return field('Transactions', 'none in this journal');
    for (const t of transactions) {
      doc.moveDown(0.3);
      field(
        `#${t.seq}${t.at ? ` at ${t.at.replace('T', ' ')}` : ''}`,
        `${t.kind}${t.requested_amount ? `, requested Rs. ${t.requested_amount}` : ''}, verdict ${verdictText(t.verdict)}${t.dispensed_amount ? `, dispensed Rs. ${t.dispensed_amount}` : ''}`,
      );
      lines(t.excerpt);
    }
  };
  near('The three transactions before', evidence.before);
  near('The three transactions after', evidence.after);

  heading('Cassette counts nearest to the transaction');
  if (evidence.counters) {
    field('Printed at line', `${evidence.counters.line}${evidence.counters.at ? ` (${evidence.counters.at.replace('T', ' ')})` : ''}`);
    doc.font('Courier').fontSize(8.5).fillColor(ink);
    const cell = (v: number | null) => (v === null ? '-' : String(v)).padStart(10);
    doc.text(
      `${'Cassette'.padEnd(10)}${'Denom.'.padStart(10)}${'Dispensed'.padStart(10)}${'Rejected'.padStart(10)}${'Remaining'.padStart(10)}`,
      margin,
      undefined,
      { width },
    );
    for (const c of evidence.counters.cassettes) {
      doc.text(`${String(c.position).padEnd(10)}${cell(c.denomination)}${cell(c.dispensed)}${cell(c.rejected)}${cell(c.remaining)}`, margin, undefined, {
        width,
      });
    }
    doc.font('Helvetica');
  } else field('Counts', 'none printed in this journal');

  // Each page names the pack and its place, so a loose page is still traceable.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Written in the bottom margin: without this, pdfkit would start a page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(muted)
      .text(
        printable(`EJ Desk evidence: dispute ${story.id}, journal ${evidence.journal?.file_name ?? '-'}. Page ${i + 1} of ${range.count}.`),
        margin,
        doc.page.height - margin + 16,
        { width, lineBreak: false },
      );
  }
  doc.end();
  return done;
}

/** A name safe in a Content-Disposition header and in any file system: letters, digits, '.', '_' and '-'. */
const safeFileName = (name: string, fallback = 'evidence'): string =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 120) || fallback;

/** The pack's file name: the dispute, its ATM and its transaction number. */
export const evidenceFileName = (story: Pick<Story, 'id' | 'atm_id' | 'txt_no'>): string =>
  `${safeFileName(['evidence', story.id, story.atm_id, story.txt_no].filter((p) => p !== '').join('-'))}.pdf`;
