// A real Dovecot IMAP server for tests and benchmarks: Debian's dovecot-imapd run as an ordinary
// process on 127.0.0.1, with one passwd-file user and a maildir in a temporary folder
// (a loopback Dovecot 2.3 configuration: plain passwords, maildir, no TLS). With `oauth2`, it
// also accepts OAuth2 access tokens (XOAUTH2, OAUTHBEARER) for any mailbox, each checked by
// introspection at the identity provider, which names the mailbox the token may open.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

export interface Dovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  dir: string;
  /** Append messages to the user's INBOX over IMAP (to another user's with doveadm). */
  append(messages: Buffer[], mailbox?: string, user?: string): Promise<void>;
  /** End every session of a user, as Exchange Online does when a session's token expires. */
  kick(user: string): Promise<void>;
  /** How many IMAP sessions a user has open now (doveadm who). */
  sessions(user: string): Promise<number>;
  /** Stop the server but keep its mail, as an outage would; resume() starts it again on the same port. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not listen on ${port}:\n${log()}`);
}

export interface Oauth2Check {
  /** Where Dovecot introspects tokens, and its own client there (sent as HTTP Basic). */
  introspectionUrl: string;
  client: { id: string; secret: string };
  /** The CA of the provider's certificate (readable by the dovecot user). */
  caFile: string;
  /** The SASL mechanisms offered for tokens (both unless given, as Exchange Online and Gmail do). */
  mechanisms?: ('xoauth2' | 'oauthbearer')[];
}

export async function startDovecot(options: { port?: number; password?: string; oauth2?: Oauth2Check } = {}): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-dovecot-'));
  const port = options.port ?? (await freePort());
  const user = 'ejdesk';
  const password = options.password ?? `imap-${Math.random().toString(36).slice(2)}`;
  const asRoot = process.getuid?.() === 0;
  // Dovecot's auth process runs as its own user and must reach the passwd file.
  chmodSync(dir, 0o755);
  for (const sub of ['run', 'state', 'mail']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${password}\n`);
  const uid = asRoot ? 'nobody' : String(process.getuid?.());
  const gid = asRoot ? 'nogroup' : String(process.getgid?.());
  if (asRoot) chownSync(join(dir, 'mail'), 65534, 65534);
  const oauth2 = options.oauth2;
  const tokenMechanisms = (oauth2?.mechanisms ?? ['xoauth2', 'oauthbearer']).join(' ');
  if (oauth2) {
    const url = new URL(oauth2.introspectionUrl);
    url.username = encodeURIComponent(oauth2.client.id);
    url.password = encodeURIComponent(oauth2.client.secret);
    writeFileSync(
      join(dir, 'oauth2.conf.ext'),
      `introspection_mode = post
introspection_url = ${url.href}
tls_ca_cert_file = ${oauth2.caFile}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
`,
      { mode: 0o644 },
    );
  }
  writeFileSync(
    join(dir, 'dovecot.conf'),
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
# A refusal is answered at once: the tests try wrong credentials on purpose.
auth_failure_delay = 0
auth_mechanisms = plain login${oauth2 ? ` ${tokenMechanisms}` : ''}
passdb {
  driver = passwd-file
  mechanisms = plain login
  args = scheme=PLAIN username_format=%u ${dir}/users
}
${
  oauth2
    ? `passdb {
  driver = oauth2
  mechanisms = ${tokenMechanisms}
  args = ${dir}/oauth2.conf.ext
}
`
    : ''
}userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/mail/%u${oauth2 ? ' allow_all_users=yes' : ''}
}
mail_location = maildir:~/Maildir
service imap-login {
  ${asRoot ? '' : 'chroot ='}
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
${asRoot ? '' : 'service anvil {\n  chroot =\n}\n'}`,
  );
  let output = '';
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('dovecot', ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    await waitForPort(port, child, () => output);
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();
  // doveadm's exit code 68 is "no such user or session": a kick with nobody signed in is no error.
  const doveadm = (args: string[], input?: Buffer) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile('doveadm', ['-c', join(dir, 'dovecot.conf'), ...args], (err, out, stderr) =>
        err && !(args[0] === 'kick' && err.code === 68) ? reject(new Error(`doveadm ${args[0]} (exit ${err.code}): ${stderr}${out}`)) : resolve(out),
      );
      child.stdin?.end(input);
    });

  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    dir,
    async append(messages, mailbox = 'INBOX', to = user) {
      if (to !== user) {
        for (const message of messages) await doveadm(['save', '-u', to, '-m', mailbox], message);
        return;
      }
      const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
      await client.connect();
      try {
        for (const message of messages) await client.append(mailbox, message);
      } finally {
        await client.logout();
      }
    },
    async kick(who) {
      await doveadm(['kick', who]);
    },
    async sessions(who) {
      // One line per connection: "user  imap  (pid)  (address)".
      const lines = (await doveadm(['who', '-1', who])).split('\n').filter((line) => line.trim() && !line.startsWith('username'));
      return lines.length;
    },
    halt,
    resume: launch,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
