// Warnings before a breach, as the worker sends them, to a real SMTP server (the smtp-server
// package) and a real HTTP receiver: a warning is received once, in the rule's working hours only;
// a webhook that fails twice gets the third try, signed; the digest lists exactly what breaches
// today. On PostgreSQL, two workers run as processes (`pnpm worker`) and the one that starts
// sending is killed mid-message: the warning still arrives, once.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUser, queryRows, type Db } from '@ejdesk/db';
import { backends, createTestApp, login, testDatabaseUrl, type TestApp } from '@ejdesk/api/test-helpers';
import type { AlertSettings } from '../src/config.ts';
import { createLogger, sendAlertsOnce } from '../src/index.ts';
import { spawnIngester } from './support/workers.ts';

interface Received {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  text: string;
  ehlo: string;
}

/** A real SMTP server on loopback; `onData` may hold a message (never answering) instead of taking it. */
async function smtpServer(hold?: (ehlo: string) => boolean) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
        if (hold?.(session.hostNameAppearsAs)) return; // never answered: the sender is killed meanwhile
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header('Subject'),
          messageId: header('Message-ID'),
          text: raw.slice(raw.indexOf('\r\n\r\n') + 4),
          ehlo: session.hostNameAppearsAs,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const allDay = { hours_from: 0, hours_to: 24, weekdays: [1, 2, 3, 4, 5, 6, 7] };
/** An hour of the day that is not now (UTC), for a rule whose working hours have not come. */
const notNow = () => {
  const h = new Date().getUTCHours();
  const from = (h + 2) % 23;
  return { hours_from: from, hours_to: from + 1, weekdays: [1, 2, 3, 4, 5, 6, 7], time_zone: 'UTC' };
};

/** A dispute of the owner whose TAT clock (T+5 calendar days) runs out in `daysLeft` days, today being today in India. */
async function disputeDueIn(db: Db, daysLeft: number, ownerId: number, atm: string, status = 'open'): Promise<number> {
  const [made] = await queryRows<{ id: number }>(
    db,
    sql`insert into disputes (atm_id, txt_no, first_record_id, bank_name, transaction_date, owner_id)
        values (${atm}, ${atm.slice(-4)}, ${Math.floor(Math.random() * 1e12)}, 'Harbor Bank', (now() at time zone 'Asia/Kolkata')::date + ${daysLeft - 5}::int, ${ownerId})
        returning id::float8 as id`,
  );
  await db.execute(sql`select dispute_clocks_refresh(array[${made!.id}]::bigint[])`);
  if (status === 'resolved')
    await db.execute(sql`update disputes set status = 'resolved', outcome = 'credited', stopped_on = current_date where id = ${made!.id}`);
  return made!.id;
}

const settingsFor = (port: number, overrides: Partial<AlertSettings> = {}): AlertSettings => ({
  smtp: { host: '127.0.0.1', port, tls: 'none', user: undefined, password: undefined },
  from: 'EJ Desk <ej-desk@bank.example>',
  intervalMs: 1000,
  leaseSeconds: 30,
  retrySeconds: 1,
  maxAttempts: 5,
  digestHour: 0,
  ...overrides,
});

describe.each(backends)('alerts on %s', (backend) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let ownerId: number;
  let authorization: string;
  const log = createLogger('error');
  const deliveries = async () => (await t.app.inject({ method: 'GET', url: '/api/admin/alert-deliveries/?page_size=100', headers: { authorization } })).json();
  const addRule = async (rule: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/alert-rules/', headers: { authorization }, payload: rule });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const run = (overrides: Partial<AlertSettings> = {}) =>
    sendAlertsOnce(
      {
        db: t.database.db,
        settings: settingsFor(smtp.port, overrides),
        bankPassKey: t.secrets.bankPassKey,
        clockTimeZone: 'Asia/Kolkata',
        log,
        worker: 'test',
      },
      nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, name: 'test-worker' }),
    );

  beforeAll(async () => {
    smtp = await smtpServer();
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app, { email: 'admin@example.com', password: 'battery staple horse' })).access}`;
    ownerId = (await createUser(t.database.db, 'owner@harbor.example', 'x'))!.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('a warning reaches the owner and the team once, in working hours only', async () => {
    const id = await disputeDueIn(t.database.db, 2, ownerId, 'HRB00001');
    await disputeDueIn(t.database.db, 5, ownerId, 'HRB00002'); // too far off for a 2-day warning
    const rule = await addRule({
      name: 'Two days before',
      clocks: ['tat'],
      days_before: 2,
      channel: 'email',
      to_addresses: ['Team@Harbor.example'],
      ...allDay,
    });
    expect(rule).toMatchObject({ to_owner: true, to_addresses: ['team@harbor.example'], has_webhook_secret: false });
    await addRule({ name: 'Out of hours', days_before: 10, channel: 'email', ...notNow() });

    expect(await run()).toBe(2);
    expect(await run()).toBe(0);
    const warnings = smtp.received.filter((m) => m.subject.includes('HRB00001'));
    expect(warnings.map((m) => m.to).sort()).toEqual([['owner@harbor.example'], ['team@harbor.example']]);
    expect(warnings[0]!.subject).toMatch(/^EJ Desk: dispute HRB00001\/0001: RBI harmonised TAT \(failed ATM withdrawal\) due \d{4}-\d\d-\d\d$/);
    expect(warnings[0]!.text).toContain(`Dispute ${id} (ATM HRB00001`);
    expect(smtp.received.filter((m) => m.subject.includes('HRB00002'))).toEqual([]);
    const listed = await deliveries();
    expect(listed.results.filter((d: { rule_name: string }) => d.rule_name === 'Out of hours')).toEqual([]);
    expect(listed.results.filter((d: { kind: string }) => d.kind === 'warning')).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 1, recipient: 'team@harbor.example', last_answer: expect.stringMatching(/^250/) }),
      expect.objectContaining({ status: 'sent', attempts: 1, recipient: 'owner@harbor.example' }),
    ]);
  });

  test('a webhook that fails twice gets the third try, signed with the rule’s key, and the deliveries say so', async () => {
    const key = randomBytes(24).toString('hex');
    const calls: { status: number; verified: boolean }[] = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (c) => (body += c));
      request.on('end', () => {
        const expected = `sha256=${createHmac('sha256', key).update(`${request.headers['x-ejdesk-timestamp']}.${body}`).digest('hex')}`;
        const status = calls.length < 2 ? 503 : 200;
        calls.push({ status, verified: request.headers['x-ejdesk-signature'] === expected && JSON.parse(body).dispute.atm_id === 'HRB00003' });
        response.writeHead(status).end(status === 200 ? 'ok' : 'busy');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      await disputeDueIn(t.database.db, 1, ownerId, 'HRB00003');
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ejdesk`;
      const missingKey = await t.app.inject({
        method: 'POST',
        url: '/api/admin/alert-rules/',
        headers: { authorization },
        payload: { name: 'Hook', days_before: 1, channel: 'webhook', webhook_url: url },
      });
      expect(missingKey.json()).toEqual({ detail: 'body: webhook_secret is required for a new webhook rule.' });
      const rule = await addRule({ name: 'Hook', clocks: ['tat'], days_before: 1, channel: 'webhook', webhook_url: url, webhook_secret: key, ...allDay });
      expect(rule).toMatchObject({ has_webhook_secret: true });
      expect(JSON.stringify(rule)).not.toContain(key);
      for (let i = 0; i < 20 && calls.length < 3; i += 1) {
        await run();
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(calls).toEqual([
        { status: 503, verified: true },
        { status: 503, verified: true },
        { status: 200, verified: true },
      ]);
      const hook = (await deliveries()).results.find((d: { channel: string }) => d.channel === 'webhook');
      expect(hook).toMatchObject({ status: 'sent', attempts: 3, last_answer: '200 ok', recipient: url });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  test("a network's clock is warned of like the TAT rule's: the representment due in 2 days, not the one in 5", async () => {
    // NFS disputes whose chargeback was raised 3 days and today (the acquirer has 5 days to answer);
    // their TAT clocks breached weeks ago, out of any warning's window.
    const nfsDispute = async (atm: string, raisedDaysAgo: number) => {
      const [made] = await queryRows<{ id: number }>(
        t.database.db,
        sql`insert into disputes (atm_id, txt_no, first_record_id, bank_name, network, stage, transaction_date, owner_id)
            values (${atm}, ${atm.slice(-4)}, ${Math.floor(Math.random() * 1e12)}, 'Harbor Bank', 'NFS', 'chargeback_raised',
                    (now() at time zone 'Asia/Kolkata')::date - 40, ${ownerId})
            returning id::float8 as id`,
      );
      await t.database.db.execute(sql`insert into dispute_stages (dispute_id, stage, entered_on)
        values (${made!.id}, 'chargeback_raised', (now() at time zone 'Asia/Kolkata')::date - ${raisedDaysAgo}::int)`);
      await t.database.db.execute(sql`select dispute_clocks_refresh(array[${made!.id}]::bigint[])`);
      return made!.id;
    };
    const soon = await nfsDispute('NFS00001', 3);
    await nfsDispute('NFS00002', 0);
    await addRule({
      name: 'Representment',
      clocks: ['nfs.representment'],
      days_before: 2,
      channel: 'email',
      to_owner: false,
      to_addresses: ['cb@harbor.example'],
      ...allDay,
    });
    expect(await run()).toBe(1);
    const warnings = smtp.received.filter((m) => m.subject.includes('NFS0000'));
    expect(warnings.map((m) => [m.to, m.subject.replace(/\d{4}-\d\d-\d\d$/, 'DAY')])).toEqual([
      [['cb@harbor.example'], 'EJ Desk: dispute NFS00001/0001: Representment or acceptance due DAY'],
    ]);
    expect(warnings[0]!.text).toContain(`Dispute ${soon} (ATM NFS00001`);
  });

  test('the digest lists exactly what breaches today, once a day', async () => {
    const today = await disputeDueIn(t.database.db, 0, ownerId, 'HRB00010');
    await disputeDueIn(t.database.db, 1, ownerId, 'HRB00011'); // tomorrow's
    await disputeDueIn(t.database.db, 0, ownerId, 'HRB00012', 'resolved'); // dealt with
    await run();
    await run();
    const digests = smtp.received.filter((m) => m.subject.includes('run out today') || m.subject.includes('runs out today'));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.to).toEqual(['owner@harbor.example']);
    expect(digests[0]!.subject).toMatch(/^EJ Desk: 1 clock runs out today \(\d{4}-\d\d-\d\d\)$/);
    expect(digests[0]!.text).toContain(`Dispute ${today}: ATM HRB00010`);
    expect(digests[0]!.text).not.toMatch(/HRB00011|HRB00012/);
  });
});

describe.runIf(testDatabaseUrl)('two workers, one killed mid-send (PostgreSQL)', () => {
  test('the warning arrives once: the survivor sends what the dead worker held, after its lease', async () => {
    let killed = '';
    const workers = new Map<string, ReturnType<typeof spawnIngester>>();
    // The first worker to send is killed while the relay holds its message, unanswered.
    const smtp = await smtpServer((ehlo) => {
      if (killed) return false;
      killed = ehlo;
      for (const [name, child] of workers) {
        if (!ehlo.endsWith(`-${child.pid}`)) continue;
        child.kill('SIGKILL');
        workers.delete(name);
      }
      return true;
    });
    const t = await createTestApp('postgres');
    try {
      const authorization = `JWT ${(await login(t.app, { email: 'admin@example.com', password: 'battery staple horse' })).access}`;
      const owner = (await createUser(t.database.db, 'owner@harbor.example', 'x'))!.id;
      await disputeDueIn(t.database.db, 1, owner, 'HRB00020');
      const rule = await t.app.inject({
        method: 'POST',
        url: '/api/admin/alert-rules/',
        headers: { authorization },
        payload: { name: 'Last day but one', clocks: ['tat'], days_before: 1, channel: 'email', ...allDay },
      });
      expect(rule.statusCode).toBe(201);
      const env = {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_TLS: 'none',
        ALERT_INTERVAL_SECONDS: '1',
        ALERT_LEASE_SECONDS: '5',
        LOG_LEVEL: 'error',
      };
      for (const name of ['a', 'b']) workers.set(name, spawnIngester(['--watch'], t, { env }));
      const until = Date.now() + 60_000;
      while (smtp.received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      // A few more rounds: nothing else comes.
      await new Promise((r) => setTimeout(r, 4000));
      expect(killed).toMatch(/^ejdesk-worker-/);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toMatchObject({ to: ['owner@harbor.example'] });
      expect(smtp.received[0]!.ehlo).not.toBe(killed);
      const [delivery] = await queryRows<{ status: string; attempts: number }>(t.database.db, sql`select status, attempts from alert_deliveries`);
      expect(delivery).toEqual({ status: 'sent', attempts: 2 });
    } finally {
      for (const child of workers.values()) child.kill('SIGTERM');
      await t.close();
      await smtp.close();
    }
  }, 120_000);
});
