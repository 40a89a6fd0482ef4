// Generated mail for the ingester's tests and benchmark: real MIME from nodemailer's MailComposer,
// real workbooks (exceljs), password-protected PDFs (pdfkit) and ZIPs (zip.js), plus duplicates,
// ignored senders and broken or hostile messages, each with what processing must make of it.
import { crc32, deflateRawSync } from 'node:zlib';
import { encryptBankPass, replaceIngestRules, type Db, type EmailCategory } from '@ejdesk/db';
import { bankMsps, bankPasswords } from '@ejdesk/db';
import { TextReader, Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import ExcelJS from 'exceljs';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import PDFDocument from 'pdfkit';

export const banks = {
  apex: { name: 'Apex Bank', domain: 'apexbank.example', password: 'apex-pdf-2026', code: 'APX' },
  harbor: { name: 'Harbor Bank', domain: 'harborbank.example', password: 'harbor-zip-2026', code: 'HRB' },
};
const msp = { name: 'Atlas ATM Services', domain: 'atlas-atm.example' };

/** The Bank MSP list, stored passwords, sender mapping and ignore rules the corpus assumes. */
export async function prepareRules(db: Db, bankPassKey: Buffer): Promise<void> {
  await db.insert(bankMsps).values(Object.values(banks).map((b) => ({ msp: msp.name, bankName: b.name })));
  await db.insert(bankPasswords).values(Object.values(banks).map((b) => ({ bankName: b.name, bankPassEncrypted: encryptBankPass(bankPassKey, b.password) })));
  await replaceIngestRules(db, {
    senders: [...Object.values(banks).map((b) => ({ sender: `@${b.domain}`, organisation: b.name })), { sender: `@${msp.domain}`, organisation: msp.name }],
    ignore: [
      { field: 'subject', pattern: 'out of office' },
      { field: 'sender', pattern: 'noreply@' },
    ],
  });
}

interface DisputeLine {
  atm: string;
  card: string;
  txn: string;
  date: string; // DD/MM/YY
  amount: number;
}

export const disputeLines = (code: string, from: number, count: number): DisputeLine[] =>
  Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return {
      atm: `${code}${String(n).padStart(5, '0')}`,
      card: `4111XXXXXXXX${String(1000 + (n % 9000)).padStart(4, '0')}`,
      txn: String(700000 + n),
      date: `${String(1 + (n % 28)).padStart(2, '0')}/10/26`,
      amount: 500 + (n % 40) * 100,
    };
  });

const header = ['ATM ID', 'CARD No.', 'TXT No.', 'TXT Date.(DD/MM/YY)', 'TXT Amt.', 'MSP Remarks', 'Response Code'];
const cells = (l: DisputeLine) => [l.atm, l.card, l.txn, l.date, String(l.amount), 'Cash not dispensed', '91'];

export const htmlTable = (lines: DisputeLine[]) =>
  `<p>Dear team, please check the EJ for these transactions.</p><table border="1"><tr>${['ATM ID', 'Card No', 'Txn No', 'Txn Date', 'Amount'].map((h) => `<th>${h}</th>`).join('')}</tr>${lines
    .map((l) => `<tr><td>${l.atm}</td><td>${l.card}</td><td>${l.txn}</td><td>${l.date}</td><td>${l.amount.toFixed(2)}</td></tr>`)
    .join('')}</table><p>Regards</p>`;

const csv = (lines: DisputeLine[]) => [header, ...lines.map(cells)].map((r) => r.join(',')).join('\r\n') + '\r\n';
const pipeText = (lines: DisputeLine[]) => ['EJ extract', '', ...[header, ...lines.map(cells)].map((r) => `| ${r.join(' | ')} |`)].join('\n') + '\n';

async function xlsx(lines: DisputeLine[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Disputes');
  sheet.addRow(header);
  for (const l of lines) {
    const [d, m, y] = l.date.split('/').map(Number);
    sheet.addRow([l.atm, l.card, l.txn, new Date(Date.UTC(2000 + y!, m! - 1, d!)), l.amount, 'Cash not dispensed', '91']);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function pdf(lines: DisputeLine[], userPassword?: string): Promise<Buffer> {
  const doc = new PDFDocument(userPassword ? { userPassword, ownerPassword: `${userPassword}-owner`, pdfVersion: '1.7' } : {});
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => doc.on('end', resolve));
  doc.fontSize(8);
  for (const row of [header, ...lines.map(cells)]) doc.text(row.join(' | '));
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

export async function zip(files: { name: string; content: string | Uint8Array }[], password?: string): Promise<Buffer> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), password ? { password } : {});
  for (const f of files) await writer.add(f.name, typeof f.content === 'string' ? new TextReader(f.content) : new Uint8ArrayReader(f.content));
  return Buffer.from(await writer.close());
}

/** A ZIP whose one entry inflates to `size` bytes of zeros: a classic bomb (stored sizes honest). */
export function zipBomb(size: number): Buffer {
  const zeros = Buffer.alloc(size);
  const data = deflateRawSync(zeros, { level: 9 });
  const name = Buffer.from('payload.csv');
  const crc = crc32(zeros);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

interface MailSpec {
  from: string;
  subject: string;
  html?: string;
  text?: string;
  attachments?: { filename: string; content: Buffer | string; contentType?: string }[];
  messageId?: string | false;
  date?: Date;
}

const corpusDate = new Date('2026-10-15T09:30:00Z');

export async function compose(spec: MailSpec): Promise<Buffer> {
  const composer = new MailComposer({
    from: spec.from,
    to: 'ej-desk@operations.example',
    subject: spec.subject,
    html: spec.html,
    text: spec.text ?? (spec.html ? undefined : 'Please see attached.'),
    attachments: spec.attachments,
    date: spec.date ?? corpusDate,
    ...(spec.messageId === false ? {} : { messageId: spec.messageId }),
  });
  const raw = await composer.compile().build();
  if (spec.messageId !== false) return raw;
  // MailComposer always adds a Message-ID; some senders send none.
  return Buffer.from(raw.toString('latin1').replace(/^Message-ID: .*\r\n/im, ''), 'latin1');
}

export interface CorpusMessage {
  name: string;
  raw: Buffer;
  /** What processing must make of it; undefined for a message that is a duplicate of an earlier one. */
  expect?: { category: EmailCategory; rows: Record<string, number>; failure?: RegExp };
}

/** The test corpus: every category, file kind and hostile case, in mailbox order. */
export async function testCorpus(options: { bigAttachment?: boolean } = {}): Promise<CorpusMessage[]> {
  const { apex, harbor } = banks;
  const bankMail = (b: typeof apex) => `EJ Disputes <disputes@${b.domain}>`;
  const mspMail = `Atlas Ops <ops@${msp.domain}>`;
  const thread = disputeLines(apex.code, 1, 3);
  const out: CorpusMessage[] = [];
  const add = async (name: string, spec: MailSpec, expect?: CorpusMessage['expect']) => out.push({ name, raw: await compose(spec), expect });

  await add(
    'first of a thread',
    { from: bankMail(apex), subject: 'ATM dispute APX00001', html: htmlTable(thread), messageId: '<thread-1@apexbank.example>' },
    { category: 'processed', rows: { dispute: 3 } },
  );
  await add(
    'reply quoting the same table',
    { from: bankMail(apex), subject: 'RE: ATM dispute APX00001', html: `<p>Any update?</p>${htmlTable(thread)}`, messageId: '<thread-2@apexbank.example>' },
    { category: 'same_subject', rows: {} },
  );
  await add(
    'reply with one new row',
    {
      from: bankMail(apex),
      subject: 'Re: Fwd: ATM dispute APX00001',
      html: htmlTable([...thread, ...disputeLines(apex.code, 4, 1)]),
      messageId: '<thread-3@apexbank.example>',
    },
    { category: 'same_subject_processing', rows: { dispute: 1 } },
  );
  await add(
    'missing txn csv from the MSP',
    {
      from: mspMail,
      subject: 'Missing txn report Harbor Bank',
      attachments: [{ filename: 'missing_txn_2026-10.csv', content: csv(disputeLines(harbor.code, 1, 5)) }],
    },
    { category: 'processed', rows: { missing_txn: 5 } },
  );
  await add(
    'text dump',
    { from: bankMail(harbor), subject: 'EJ text dump', attachments: [{ filename: 'ej_dump.txt', content: pipeText(disputeLines(harbor.code, 10, 4)) }] },
    { category: 'processed', rows: { text: 4, dispute: 4 } },
  );
  await add(
    'missing report',
    { from: bankMail(harbor), subject: 'Daily report', attachments: [{ filename: 'missing_report.txt', content: csv(disputeLines(harbor.code, 20, 2)) }] },
    { category: 'processed', rows: { missing: 2 } },
  );
  await add(
    'between successful',
    {
      from: bankMail(apex),
      subject: 'Between successful transactions',
      attachments: [{ filename: 'report.txt', content: csv(disputeLines(apex.code, 30, 2)) }],
    },
    { category: 'processed', rows: { between_successful: 2 } },
  );
  await add(
    'excel',
    {
      from: bankMail(apex),
      subject: 'Dispute sheet October',
      attachments: [{ filename: 'disputes.xlsx', content: await xlsx(disputeLines(apex.code, 40, 6)) }],
    },
    { category: 'processed', rows: { excel: 6, dispute: 6 } },
  );
  await add(
    'protected pdf',
    {
      from: bankMail(apex),
      subject: 'EJ statement PDF',
      attachments: [{ filename: 'statement.pdf', content: await pdf(disputeLines(apex.code, 50, 3), apex.password) }],
    },
    { category: 'processed', rows: { pdf: 3, dispute: 3 } },
  );
  await add(
    'protected zip of overage',
    {
      from: mspMail,
      subject: 'Overage Harbor Bank',
      attachments: [
        { filename: 'overage.zip', content: await zip([{ name: 'overage_HRB.csv', content: csv(disputeLines(harbor.code, 60, 2)) }], harbor.password) },
      ],
    },
    { category: 'processed', rows: { other: 2, overage: 2 } },
  );
  await add(
    'succeeding file',
    {
      from: bankMail(apex),
      subject: 'Succeeding transactions',
      attachments: [{ filename: 'succeeding_APX.csv', content: csv(disputeLines(apex.code, 70, 2)) }],
    },
    { category: 'processed', rows: { text: 2, succeeding: 2 } },
  );
  out.push({ name: 'duplicate of the first', raw: out[0]!.raw });
  await add(
    'unknown sender',
    { from: 'Deals <offers@marketing.example>', subject: 'Big savings', html: htmlTable(disputeLines('ZZZ', 1, 1)) },
    { category: 'ignored', rows: {} },
  );
  await add('ignored subject', { from: bankMail(apex), subject: 'Out of Office: back Monday', text: 'I am away.' }, { category: 'ignored', rows: {} });
  await add('ignored sender rule', { from: `noreply@${apex.domain}`, subject: 'Statement ready', text: 'Automated.' }, { category: 'ignored', rows: {} });
  await add('nothing to extract', { from: bankMail(harbor), subject: 'Thanks', text: 'Thank you, noted.' }, { category: 'ej_not_found', rows: {} });
  const noId = await compose({ from: bankMail(harbor), subject: 'No message id', html: htmlTable(disputeLines(harbor.code, 80, 1)), messageId: false });
  out.push({ name: 'no Message-ID', raw: noId, expect: { category: 'processed', rows: { dispute: 1 } } });
  out.push({ name: 'no Message-ID again', raw: noId });
  await add(
    'pdf with a password nobody stored',
    {
      from: bankMail(harbor),
      subject: 'Locked PDF',
      attachments: [{ filename: 'locked.pdf', content: await pdf(disputeLines(harbor.code, 90, 1), 'not-the-bank-password') }],
    },
    { category: 'ej_not_found', rows: {}, failure: /password/ },
  );
  await add(
    'corrupt xlsx',
    {
      from: bankMail(apex),
      subject: 'Broken workbook',
      attachments: [{ filename: 'broken.xlsx', content: Buffer.from('PK\u0003\u0004 this is not really a workbook') }],
    },
    { category: 'ej_not_found', rows: {}, failure: /broken\.xlsx/ },
  );
  await add(
    'corrupt pdf',
    { from: bankMail(apex), subject: 'Broken PDF', attachments: [{ filename: 'broken.pdf', content: Buffer.from('%PDF-1.7\n1 0 obj garbage') }] },
    { category: 'ej_not_found', rows: {}, failure: /broken\.pdf/ },
  );
  await add(
    'zip bomb',
    { from: bankMail(apex), subject: 'Archive', attachments: [{ filename: 'bomb.zip', content: zipBomb(100 * 1024 * 1024) }] },
    { category: 'ej_not_found', rows: {}, failure: /expands beyond/ },
  );
  await add(
    'hostile cells',
    {
      from: bankMail(harbor),
      subject: 'Formula cells',
      html: htmlTable([{ atm: 'HRB\u000099999', card: '=HYPERLINK("http://x")', txn: '+1', date: '31/02/26', amount: 1e15 }]),
    },
    { category: 'processed', rows: { dispute: 1 } },
  );
  const broken = Buffer.from(
    'From: disputes@harborbank.example\r\nSubject: Broken MIME\r\nDate: Thu, 15 Oct 2026 10:00:00 +0000\r\nMessage-ID: <broken-mime@harborbank.example>\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/html; charset="x-no-such-charset"\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%not base64%%%\r\n--b1\r\nContent-Type: application/octet-stream; name="x.bin"\r\n\r\n\u0000\u0001\u0002',
    'latin1',
  );
  out.push({ name: 'broken MIME', raw: broken, expect: { category: 'ej_not_found', rows: {} } });
  if (options.bigAttachment) {
    await add(
      '50 MB attachment',
      { from: bankMail(apex), subject: 'Huge EJ', attachments: [{ filename: 'huge.txt', content: Buffer.alloc(50 * 1024 * 1024, 'A') }] },
      { category: 'ej_not_found', rows: {}, failure: /extraction limit/ },
    );
  }
  await add(
    'last, after the hostile ones',
    { from: bankMail(harbor), subject: 'ATM dispute HRB00100', html: htmlTable(disputeLines(harbor.code, 100, 2)) },
    { category: 'processed', rows: { dispute: 2 } },
  );
  return out;
}

/**
 * A mailbox of `count` ordinary messages in a realistic mix: body tables (40%), CSV (20%), Excel
 * (10%), protected PDF (10%), protected ZIP (5%), pipe text (5%), ignored senders (5%) and replies
 * with new rows (5%). Workbooks and PDFs are built once per 25 variants and reused: parsing costs the same.
 */
export async function bulkCorpus(count: number, onProgress?: (done: number) => void): Promise<Buffer[]> {
  const { apex, harbor } = banks;
  const workbooks = new Map<number, Buffer>();
  const pdfs = new Map<number, Buffer>();
  const zips = new Map<number, Buffer>();
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const bank = i % 2 ? harbor : apex;
    const from = i % 3 === 0 ? `Atlas Ops <ops@${msp.domain}>` : `EJ Disputes <disputes@${bank.domain}>`;
    const subject = `ATM dispute ${bank.name} ${bank.code}-${i}`;
    const lines = disputeLines(bank.code, i * 4, 2 + (i % 3));
    const variant = i % 25;
    const messageId = `<bulk-${i}@ejdesk.test>`;
    const date = new Date(corpusDate.getTime() + i * 60_000);
    let spec: MailSpec;
    switch (i % 20) {
      case 8:
      case 9:
      case 10:
      case 11:
        spec = { from, subject, attachments: [{ filename: `disputes_${i}.csv`, content: csv(lines) }] };
        break;
      case 12:
      case 13:
        if (!workbooks.has(variant)) workbooks.set(variant, await xlsx(disputeLines(bank.code, variant * 10, 5)));
        spec = { from, subject, attachments: [{ filename: `disputes_${i}.xlsx`, content: workbooks.get(variant)! }] };
        break;
      case 14:
      case 15:
        if (!pdfs.has(variant)) pdfs.set(variant, await pdf(disputeLines(apex.code, variant * 10, 4), apex.password));
        spec = { from: `EJ Disputes <disputes@${apex.domain}>`, subject, attachments: [{ filename: `statement_${i}.pdf`, content: pdfs.get(variant)! }] };
        break;
      case 16:
        if (!zips.has(variant))
          zips.set(variant, await zip([{ name: `overage_${variant}.csv`, content: csv(disputeLines(harbor.code, variant * 10, 3)) }], harbor.password));
        spec = { from: `EJ Disputes <disputes@${harbor.domain}>`, subject, attachments: [{ filename: `overage_${i}.zip`, content: zips.get(variant)! }] };
        break;
      case 17:
        spec = { from, subject, attachments: [{ filename: `ej_dump_${i}.txt`, content: pipeText(lines) }] };
        break;
      case 18:
        spec = { from: 'Deals <offers@marketing.example>', subject: `Offer ${i}`, html: '<p>Buy now</p>' };
        break;
      case 19:
        spec = { from, subject: `RE: ATM dispute ${bank.name} ${bank.code}-${i - 2}`, html: htmlTable(lines) };
        break;
      default:
        spec = { from, subject, html: htmlTable(lines) };
    }
    out.push(await compose({ ...spec, messageId, date }));
    if (onProgress && (i + 1) % 1000 === 0) onProgress(i + 1);
  }
  return out;
}

/**
 * Ten (or `count`) messages of about 40 MB each, as banks send month-end extracts: a 20,000-row
 * dispute CSV (~3 MB) and a 24 MB binary EJ archive, base64-encoded in the message.
 */
export async function bigCorpus(count = 10): Promise<Buffer[]> {
  const { apex } = banks;
  const archive = Buffer.alloc(28 * 1024 * 1024);
  for (let i = 0; i < archive.length; i += 4) archive.writeUInt32LE((i * 2654435761) >>> 0, i);
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const lines = disputeLines(apex.code, i * 20_000, 20_000);
    out.push(
      await compose({
        from: `EJ Disputes <disputes@${apex.domain}>`,
        subject: `Month-end EJ extract ${i}`,
        messageId: `<big-${i}@ejdesk.test>`,
        attachments: [
          { filename: `month_end_${i}.csv`, content: csv(lines) },
          { filename: `ej_archive_${i}.bin`, content: archive, contentType: 'application/octet-stream' },
        ],
      }),
    );
  }
  return out;
}

/** An mboxrd file of these messages. */
export function toMbox(messages: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const raw of messages) {
    parts.push(Buffer.from('From MAILER-DAEMON Thu Oct 15 09:30:00 2026\n'));
    const text = raw
      .toString('latin1')
      .replace(/\r\n/g, '\n')
      .replace(/^(>*From )/gm, '>$1');
    parts.push(Buffer.from(text.endsWith('\n') ? text : `${text}\n`, 'latin1'), Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}
