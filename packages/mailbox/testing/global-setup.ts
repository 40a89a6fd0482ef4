// Vitest's global setup for suites that start the identity provider: one CA for the run, trusted
// by every test worker's fetch (NODE_EXTRA_CA_CERTS is read when a worker starts).
import { rmSync } from 'node:fs';
import { createTestCa } from './tls.ts';

export default function setup(): () => void {
  const ca = createTestCa();
  process.env.NODE_EXTRA_CA_CERTS = ca.certFile;
  process.env.EJDESK_TEST_CA_DIR = ca.dir;
  return () => rmSync(ca.dir, { recursive: true, force: true });
}
