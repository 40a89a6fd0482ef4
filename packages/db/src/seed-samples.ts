// The demo's hostile samples, so that the console and the exports can be seen to defuse them.
import type { Db } from './client.ts';
import { insertBatches, type BatchOptions } from './seed-batches.ts';

/** Mail is untrusted: one sample carries the usual tricks, so the console can be seen to defuse them. */
const hostileSampleSubject = 'Suspicious HTML sample';
const hostileSampleHtml =
  '<p>Please review the attached dispute.</p>' +
  '<script>window.parent.__ejdeskPwned = "script"</script>' +
  '<img src="x" onerror="window.parent.__ejdeskPwned = \'onerror\'" alt="broken">' +
  '<a href="javascript:window.parent.__ejdeskPwned = \'link\'">Open the statement</a>' +
  '<img src="http://tracker.invalid/pixel.png?id=42" alt="tracking pixel">';

/** An EJ record whose remark is a spreadsheet formula: exports must write it as inert text. */
const formulaSampleAtmId = 'EVL00001';

export async function insertHostileSample(db: Db, now: Date, options: BatchOptions) {
  await insertBatches(
    db,
    'ej_records',
    {
      kind: 'text',
      atm_id: 'text',
      card_no: 'text',
      txt_no: 'text',
      transaction_date: 'date',
      transaction_amt: 'numeric',
      msp_remarks: 'text',
      mail_subject: 'text',
      mail_received_from: 'text',
      bank_name: 'text',
    },
    1,
    () => ({
      kind: 'dispute',
      atm_id: formulaSampleAtmId,
      card_no: '400000XXXXXX0000',
      txt_no: '000001',
      transaction_date: now.toISOString().slice(0, 10),
      transaction_amt: 100,
      msp_remarks: '=HYPERLINK("http://evil.example","Refund")',
      mail_subject: '@SUM(1+1)',
      mail_received_from: 'unknown@phish.example',
      bank_name: 'Apex Bank',
    }),
    options,
  );
  const at = new Date(now.getTime() - 3600_000).toISOString();
  await insertBatches(
    db,
    'emails',
    {
      email_from: 'text',
      email_to: 'text',
      subject: 'text',
      normalized_subject: 'text',
      email_body: 'text',
      email_body_html: 'text',
      received_at: 'timestamptz',
      category: 'text',
      create_at: 'timestamptz',
      update_at: 'timestamptz',
    },
    1,
    () => ({
      email_from: 'unknown@phish.example',
      email_to: 'ej-desk@operations.example',
      subject: hostileSampleSubject,
      normalized_subject: hostileSampleSubject.toLowerCase(),
      email_body: 'Please review the attached dispute.',
      email_body_html: hostileSampleHtml,
      received_at: at,
      category: 'ignored',
      create_at: at,
      update_at: at,
    }),
    options,
  );
}
