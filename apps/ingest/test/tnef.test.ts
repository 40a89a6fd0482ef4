// Outlook's TNEF (winmail.dat) read by the ingester's decoder, checked against another decoder on
// files neither wrote: Debian's `tnef` takes the attachments out of node-tnef's test files, and
// the body out of a file KDE's KTNEF wrote, and ours must take out the same, byte for byte; a file
// that is not TNEF, or is cut, is a failure in words, never a crash.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTnef } from '../src/extract/tnef.ts';
import { ktnefWinmail, thirdPartyTnef } from './support/third-party.ts';

/** What Debian's tnef decoder takes out of a file: name -> bytes (with its options, the body too). */
function debianTnef(file: string, options: string[] = []): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-tnef-'));
  try {
    execFileSync('tnef', ['--overwrite', ...options, '-C', dir, '-f', file], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`Debian's tnef failed on ${file} (apt-get install tnef): ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

describe('TNEF', () => {
  it('takes out the same attachments as Debian’s tnef, byte for byte', () => {
    const file = thirdPartyTnef('attachments.dat');
    const theirs = debianTnef(file);
    const ours = readTnef(readFileSync(file)).files;
    expect(ours.map((a) => a.name)).toEqual(['zappa_av1.jpg', 'bookmark.htm']);
    expect(new Map(ours.map((a) => [a.name, a.data]))).toEqual(theirs);
  });

  it('reads the plain-text body another writer (KDE’s KTNEF) wrote as Debian’s tnef does', () => {
    const file = ktnefWinmail('KTN', 3);
    const theirs = debianTnef(file, ['--save-body=body', '--body-pref=T']).get('body.txt');
    const ours = readTnef(readFileSync(file));
    expect(ours.files).toEqual([]);
    // Debian's tnef writes the attribute's closing NUL too.
    expect(Buffer.from(`${ours.text}\0`, 'latin1')).toEqual(theirs);
    expect(ours.text.split('\r\n').slice(2, 4)).toEqual([
      'ATM ID\tCard No\tTxn No\tTxn Date\tTxn Amount\tMSP Remarks',
      'KTN00001\t4111XXXXXXXX1001\t800001\t02/10/26\t110.00\tCash not dispensed',
    ]);
  });

  it.each([
    ['badchecksum.dat', 'it is not TNEF (no TNEF signature at its start)'],
    ['panic.dat', 'the TNEF data ends in the middle of an attribute (the file is cut or corrupt)'],
  ])('%s is refused in words', (name, reason) => {
    expect(() => readTnef(readFileSync(thirdPartyTnef(name)))).toThrow(reason);
  });

  it('a cut file is refused at any point, without reading past its end', () => {
    const whole = readFileSync(thirdPartyTnef('attachments.dat'));
    for (const length of [0, 3, 5]) expect(() => readTnef(whole.subarray(0, length)), String(length)).toThrow('it is not TNEF');
    for (const length of [7, 11, 100, 5000, whole.length - 1]) {
      expect(() => readTnef(whole.subarray(0, length)), String(length)).toThrow('the TNEF data ends in the middle of an attribute');
    }
  });
});
