// The worker's alerts: every interval it makes the warnings and digests due (the database keeps
// each once, whatever number of workers), then sends what it can claim. Email goes through the
// bank's SMTP relay (nodemailer), a webhook as a signed POST. A message keeps one Message-ID on
// every try, so a relay or mail client that has it already can drop a second copy: the one window
// for a second copy is a worker killed between the relay's acceptance and the database's record.
import { createHmac } from 'node:crypto';
import { hostname } from 'node:os';
import nodemailer, { type Transporter } from 'nodemailer';
import {
  claimDeliveries,
  holdDelivery,
  retireStaleWarnings,
  decryptBankPass,
  digestLines,
  extendAuditChain,
  markFailed,
  markSent,
  planDigests,
  planWarnings,
  type ClaimedDelivery,
  type Db,
} from '@ejdesk/db';
import type { AlertSettings } from '../config.ts';
import type { Logger } from '../log.ts';

interface AlertOptions {
  db: Db;
  settings: AlertSettings;
  /** The bank-password key ring: it opens the webhooks' keys. */
  bankPassKey: Buffer;
  clockTimeZone: string;
  log: Logger;
  /** This worker's name: the EHLO name it greets the relay with, and its leases' holder. */
  worker?: string;
  signal?: AbortSignal;
}

const workerName = () => `ejdesk-worker-${hostname().replace(/[^A-Za-z0-9.-]/g, '-')}-${process.pid}`;

const dayWords = (d: ClaimedDelivery) => `${d.clock_name} due ${d.due_on}`;

/** A warning's or a digest's email: subject, text, and a Message-ID that stays the same on every try. */
async function emailOf(db: Db, d: ClaimedDelivery, from: string) {
  const messageId = `<ejdesk-alert-${d.id}@ej-desk.invalid>`;
  if (d.kind === 'digest') {
    const lines = await digestLines(db, d.recipient, d.due_on);
    return {
      from,
      to: d.recipient,
      messageId,
      subject: `EJ Desk: ${lines.length} ${lines.length === 1 ? 'clock runs' : 'clocks run'} out today (${d.due_on})`,
      text: lines.length
        ? `These clocks of your disputes run out at the end of today, ${d.due_on}:\n\n${lines
            .map((l) => `- Dispute ${l.dispute_id}: ATM ${l.atm_id}, transaction ${l.txt_no}${l.bank_name ? `, ${l.bank_name}` : ''}: ${l.clock_name}`)
            .join('\n')}\n`
        : `None of your disputes' clocks runs out today, ${d.due_on}: all were dealt with since this morning.\n`,
    };
  }
  return {
    from,
    to: d.recipient,
    messageId,
    subject: `EJ Desk: dispute ${d.atm_id}/${d.txt_no}: ${dayWords(d)}`,
    text: `Dispute ${d.dispute_id} (ATM ${d.atm_id}, transaction ${d.txt_no}${d.bank_name ? `, ${d.bank_name}` : ''}): its clock "${d.clock_name}" runs out on ${d.due_on}.\n\nAlert rule: ${d.rule_name}.\n`,
  };
}

/** A webhook's body and headers: X-EJDesk-Signature is sha256= the HMAC-SHA256 of "<timestamp>.<body>" under the rule's key. */
export function webhookRequest(d: ClaimedDelivery, key: string, now = Date.now()): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    delivery: d.id,
    kind: d.kind,
    rule: d.rule_name,
    dispute: { id: d.dispute_id, atm_id: d.atm_id, txt_no: d.txt_no, bank_name: d.bank_name },
    clock: { key: d.clock_key, name: d.clock_name, due_on: d.due_on },
  });
  const timestamp = String(Math.floor(now / 1000));
  const signature = createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-ejdesk-delivery': String(d.id),
      'x-ejdesk-timestamp': timestamp,
      'x-ejdesk-signature': `sha256=${signature}`,
    },
  };
}

function transportOf(settings: AlertSettings, worker: string): Transporter | null {
  const smtp = settings.smtp;
  if (!smtp) return null;
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls === 'implicit',
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    name: worker,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/** Makes what is due and sends what this worker can claim, until none is left. Returns how many were sent. */
export async function sendAlertsOnce(options: AlertOptions, transport: Transporter | null): Promise<number> {
  const { db, settings, log } = options;
  const worker = options.worker ?? workerName();
  await retireStaleWarnings(db);
  await planWarnings(db);
  if (settings.smtp) await planDigests(db, options.clockTimeZone, settings.digestHour);
  let sent = 0;
  for (;;) {
    if (options.signal?.aborted) return sent;
    const claimed = await claimDeliveries(db, worker, settings.leaseSeconds);
    if (claimed.length === 0) return sent;
    for (const d of claimed) {
      // Sending the ones before took long enough for this hold to lapse: another worker has it.
      if (!(await holdDelivery(db, d.id, worker, settings.leaseSeconds))) continue;
      try {
        let answer: string;
        if (d.channel === 'email') {
          if (!transport) throw new Error('no SMTP relay is set (SMTP_HOST)');
          const info = await transport.sendMail(await emailOf(db, d, settings.from));
          answer = info.response ?? 'accepted';
        } else {
          if (!d.webhook_secret_encrypted) throw new Error('the rule has no webhook key');
          const { body, headers } = webhookRequest(d, decryptBankPass(options.bankPassKey, d.webhook_secret_encrypted));
          const response = await fetch(d.recipient, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
          answer = `${response.status} ${(await response.text().catch(() => '')).slice(0, 200)}`.trim();
          if (!response.ok) throw new Error(answer);
        }
        await markSent(db, d.id, worker, answer);
        sent += 1;
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        log.warn(`alert ${d.id} to ${d.channel === 'webhook' ? new URL(d.recipient).origin : d.recipient} not sent (try ${d.attempts}): ${why}`);
        await markFailed(db, d.id, worker, why, settings.retrySeconds, settings.maxAttempts);
      }
    }
  }
}

/** The worker's round (`pnpm worker`, and beside the API under `pnpm start`): every ALERT_INTERVAL_SECONDS until stopped, the audit chain extended and the alerts sent. */
export async function watchAlerts(options: AlertOptions): Promise<void> {
  const worker = options.worker ?? workerName();
  const transport = transportOf(options.settings, worker);
  try {
    while (!options.signal?.aborted) {
      try {
        // The audit entries written since the last round take their places in the chain.
        await extendAuditChain(options.db, false);
        await sendAlertsOnce({ ...options, worker }, transport);
      } catch (error) {
        options.log.warn(`alerts: ${error instanceof Error ? error.message : String(error)}; trying again in ${options.settings.intervalMs / 1000} s`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.settings.intervalMs);
        options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  } finally {
    transport?.close();
  }
}
