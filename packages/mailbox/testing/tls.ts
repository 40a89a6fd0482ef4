// A certificate authority of the tests' own, made with openssl, and server certificates it signs
// for 127.0.0.1: the identity provider serves https as a real one does, and Node (through
// NODE_EXTRA_CA_CERTS, set before the test workers start) and Dovecot trust it as they would a
// bank's own CA.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

interface TestCa {
  dir: string;
  /** The CA certificate (PEM), readable by Dovecot's auth process. */
  certFile: string;
}

/** Make a CA in a new folder (mode 755: Dovecot's auth process, another user, reads its certificate). */
export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-ca-'));
  chmodSync(dir, 0o755);
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=EJ Desk test CA', '-keyout', 'ca.key', '-out', 'ca.pem'], dir);
  chmodSync(join(dir, 'ca.pem'), 0o644);
  return { dir, certFile: join(dir, 'ca.pem') };
}

/** A key and certificate for https on 127.0.0.1, signed by the CA in `caDir`. */
export function serverCertificate(caDir: string): { key: string; cert: string } {
  const name = `server-${process.pid}-${Date.now()}`;
  if (!existsSync(join(caDir, `${name}.pem`))) {
    writeFileSync(join(caDir, `${name}.ext`), 'subjectAltName = IP:127.0.0.1, DNS:localhost\nextendedKeyUsage = serverAuth\n');
    openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', `${name}.key`, '-out', `${name}.csr`], caDir);
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      ],
      caDir,
    );
  }
  return { key: join(caDir, `${name}.key`), cert: join(caDir, `${name}.pem`) };
}
