// Mail made by Python scripts of the tests' (test/fixtures/*.py: Python's email package, ReportLab,
// openpyxl, qpdf, openssl), never by our own code, and the rows those scripts write.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { banks } from './corpus.ts';

/** Run a fixture script (Debian's python3) into a new folder: its .eml files in name order, and the folder. */
export function mailFromPython(script: string, args: string[], needs: string): { mail: Buffer[]; dir: string } {
  const path = new URL(`../fixtures/${script}`, import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-python-mail-'));
  try {
    execFileSync('/usr/bin/python3', [path, dir, ...args], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`${script} failed (apt-get install ${needs}): ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const mail = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => readFileSync(join(dir, f)));
  return { mail, dir };
}

/** What the scripts' rows() writes for row n of a prefix, as the EJ table answers it. */
export const pythonRow = (prefix: string, n: number) => ({
  atm_id: `${prefix}${String(n).padStart(5, '0')}`,
  card_no: `4111XXXXXXXX${1000 + n}`,
  txt_no: String(800000 + n),
  transaction_date: `2026-10-${String(1 + (n % 28)).padStart(2, '0')}`,
  transaction_amt: (100 + n * 10).toFixed(2),
  msp_remarks: n % 2 ? 'Cash not dispensed' : 'Partial dispense',
  mail_received_from: `disputes@${banks.apex.domain}`,
});
