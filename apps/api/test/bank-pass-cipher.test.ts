import { randomBytes } from 'node:crypto';
import { decryptBankPass, encryptBankPass } from '@ejdesk/db';
import { describe, expect, it } from 'vitest';

describe('bank password cipher', () => {
  const key = randomBytes(32);

  it('round-trips and never repeats a ciphertext', () => {
    const a = encryptBankPass(key, 'pässwörd-1');
    const b = encryptBankPass(key, 'pässwörd-1');
    expect(a.equals(b)).toBe(false);
    expect(decryptBankPass(key, a)).toBe('pässwörd-1');
  });

  it('detects tampering and a wrong key', () => {
    const sealed = encryptBankPass(key, 'secret');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => decryptBankPass(key, tampered)).toThrow();
    expect(() => decryptBankPass(randomBytes(32), sealed)).toThrow();
  });
});
