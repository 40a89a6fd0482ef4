// The status from the mail: each processed message's rows move their disputes on (never back), and
// a message processed again takes back what it wrote.
import { sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { type DisputeOutcome, type DisputeStatus, disputeStatuses, stageRank } from './schema.ts';
import { applyMailStages, type MailStage, networkOfWords, stageOfWords } from './stages.ts';

export interface MailVerdict {
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  reason: string;
}

const notDone = /\bnot\s+(?:yet\s+)?(?:credited|refunded|reversed|resolved)\b/i;
const credited = /\b(?:credited|refunded|reversed|reversal\s+(?:done|processed|successful))\b/i;
const rejected =
  /\b(?:rejected|declined|not\s+eligible|not\s+genuine|(?:txn|transaction)\s+(?:was\s+)?successful|successful\s+(?:txn|transaction|dispense)|cash\s+(?:was\s+)?dispensed)\b/i;
const pending = /\b(?:pending|under\s+(?:process|processing|investigation|review)|in\s+progress|forwarded\s+to\s+msp)\b/i;

/**
 * What a row says of its dispute, by its remarks: credited or rejected (resolved), pending
 * (awaiting the MSP), or, in a file from an MSP, resolved whatever its words (an MSP's result
 * is its answer). Null when it says nothing of the status.
 */
export function verdictOfRow(row: { mspRemarks: string; shortDescription: string }, from: { msp: string | null; fileName: string }): MailVerdict | null {
  const remarks = [row.mspRemarks, row.shortDescription].map((r) => r.trim()).filter(Boolean);
  const words = remarks.join(' / ');
  const where = from.msp
    ? `${from.msp}'s result${from.fileName ? ` (${from.fileName})` : ''}`
    : from.fileName
      ? `a row of ${from.fileName}`
      : 'a row of the mail';
  const said = `"${words.length > 120 ? `${words.slice(0, 117)}...` : words}"`;
  if (words && !notDone.test(words)) {
    if (credited.test(words)) return { status: 'resolved', outcome: 'credited', reason: `Remark says credited: ${said} in ${where}` };
    if (rejected.test(words)) return { status: 'resolved', outcome: 'rejected', reason: `Remark says rejected: ${said} in ${where}` };
  }
  if (words && pending.test(words)) return { status: 'awaiting_msp', outcome: null, reason: `Remark says pending: ${said} in ${where}` };
  if (from.msp)
    return {
      status: 'resolved',
      outcome: 'other',
      reason: `Result from the MSP ${from.msp}${words ? `: ${said}` : ''}${from.fileName ? ` (${from.fileName})` : ''}`,
    };
  return null;
}

/** How far on a status is: disputeStatuses lists them in order (open, awaiting the MSP, resolved). */
const statusRank = (status: DisputeStatus) => disputeStatuses.indexOf(status);
const statusRankSql = (status: SQL) => sql`array_position(${sql.param([...disputeStatuses])}::text[], ${status})`;

/**
 * Link a processed message's dispute records to their disputes (new disputes get their clocks),
 * then move each dispute the message speaks of on: its EJ records and the rows of its result files
 * (missing, missing transactions, successful between) that name the same transaction. The mail
 * only moves a dispute forward (open, awaiting the MSP, resolved) and never over an operator's
 * status. `day` is the message's day on the clock: a resolution stops the clock then.
 */
export async function applyMessageToDisputes(tx: Db, message: { emailId: number; msp: string | null; day: string }): Promise<void> {
  await tx.execute(sql`select dispute_records_link(${message.emailId}::bigint)`);
  const rows = await queryRows<{ dispute_id: string | number; msp_remarks: string; short_description: string; file_name: string }>(
    tx,
    sql`select l.dispute_id, r.msp_remarks, r.short_description, r.file_name, r.id as at
        from ej_records r join dispute_records l on l.record_id = r.id
        where r.email_id = ${message.emailId} and r.kind = 'dispute'
        union all
        select m.id, fr.msp_remarks, fr.short_description, f.name, fr.id
        from data_files f join data_file_rows fr on fr.data_file_id = f.id
        cross join lateral (
          select d.id from disputes d
          where d.txt_no = fr.txt_no and d.atm_id = fr.atm_id and (d.card_no = '' or fr.card_no = '' or d.card_no = fr.card_no)
          order by d.id limit 1
        ) m
        where f.email_id = ${message.emailId} and f.kind in ('missing', 'missing_txn', 'between_successful') and fr.atm_id <> '' and fr.txt_no <> ''
        order by at`,
  );
  // The furthest word of the message on each dispute (the last row saying it, of equals), of its
  // status and of its stage, and the network a row names.
  const verdicts = new Map<number, MailVerdict>();
  const stages = new Map<number, MailStage>();
  const networks = new Map<number, string>();
  for (const row of rows) {
    const id = Number(row.dispute_id);
    const words = [row.msp_remarks, row.short_description]
      .map((r) => r.trim())
      .filter(Boolean)
      .join(' / ');
    const stage = stageOfWords(words);
    if (stage && stageRank[stage.stage] >= stageRank[stages.get(id)?.stage ?? 'complaint'])
      stages.set(id, { stage: stage.stage, reason: `Remark says "${stage.said}": ${row.file_name ? `a row of ${row.file_name}` : 'a row of the mail'}` });
    const network = networkOfWords(words);
    if (network) networks.set(id, network);
  }
  await applyMailStages(tx, message.emailId, message.day, stages, networks);
  for (const row of rows) {
    const verdict = verdictOfRow({ mspRemarks: row.msp_remarks, shortDescription: row.short_description }, { msp: message.msp, fileName: row.file_name });
    if (!verdict) continue;
    const id = Number(row.dispute_id);
    const before = verdicts.get(id);
    if (!before || statusRank(verdict.status) >= statusRank(before.status)) verdicts.set(id, verdict);
  }
  if (verdicts.size === 0) return;
  const ids = [...verdicts.keys()];
  const list = ids.map((id) => verdicts.get(id)!);
  await tx.execute(sql`
    with v as (
      select * from unnest(${sql.param(ids)}::bigint[], ${sql.param(list.map((v) => v.status))}::text[],
                           ${sql.param(list.map((v) => v.outcome))}::text[], ${sql.param(list.map((v) => v.reason))}::text[])
        as v(id, status, outcome, reason)
    ), moved as (
      update disputes d set status = v.status, outcome = v.outcome,
        stopped_on = case when v.status = 'resolved' then ${message.day}::date end,
        status_source = 'mail', status_reason = v.reason, status_by = '', status_at = now(), update_at = now()
      from v
      where d.id = v.id and d.status_source = 'mail'
        and ${statusRankSql(sql`v.status`)} > ${statusRankSql(sql`d.status`)}
      returning d.id, d.status, d.outcome, d.status_reason
    )
    insert into dispute_events (dispute_id, source, status, outcome, reason, email_id)
    select id, 'mail', status, outcome, status_reason, ${message.emailId} from moved`);
}

/**
 * Remove what processing made of emails (their EJ records), then the disputes left without a
 * record, unless an operator set their status: processed again, the records find them by their
 * transaction. `emailIds` is a subquery of the emails (all stored ones, or one).
 */
export async function removeProcessedRecords(tx: Db, emailIds: SQL): Promise<void> {
  const touched = await queryRows<{ id: string | number }>(
    tx,
    sql`select distinct l.dispute_id as id from dispute_records l join ej_records r on r.id = l.record_id where r.email_id in ${emailIds}`,
  );
  await tx.execute(sql`delete from ej_records where email_id in ${emailIds}`);
  if (touched.length === 0) return;
  await tx.execute(sql`delete from disputes d where d.id in (select unnest(${sql.param(touched.map((t) => Number(t.id)))}::bigint[]))
    and d.status_source = 'mail' and not exists (select 1 from dispute_records l where l.dispute_id = d.id)`);
}
