// AES-256-GCM for the stored secrets (bank passwords, mailbox secrets and refresh tokens): iv (12) |
// tag (16) | ciphertext, so tampering is detected. The key is a ring, so that it can be rotated:
// its first key seals, any of its keys opens, and GCM's tag tells which one sealed a value.
//
// A ring is one Buffer: its keys of 32 bytes one after another, the current one first (a single
// key is a ring of one). Every holder of the key passes it on as it is.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const keyBytes = 32;

/** The ring's keys, the current one first. */
function keysOf(ring: Buffer): Buffer[] {
  if (ring.length === 0 || ring.length % keyBytes !== 0)
    throw new Error(`A bank-password key ring is keys of ${keyBytes} bytes; this one has ${ring.length} bytes.`);
  return Array.from({ length: ring.length / keyBytes }, (_, i) => ring.subarray(i * keyBytes, (i + 1) * keyBytes));
}

/** A ring of these keys, the current one first. */
export const bankPassKeyRing = (keys: readonly Buffer[]): Buffer => {
  const ring = Buffer.concat(keys);
  keysOf(ring);
  return ring;
};

/** Seals with the ring's first key. */
export function encryptBankPass(ring: Buffer, plain: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keysOf(ring)[0]!, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]);
}

function openWith(key: Buffer, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/** The clear text and the place in the ring of the key that opened it (0: the current key), or undefined when none does. */
export function openBankPass(ring: Buffer, sealed: Buffer): { plain: string; keyIndex: number } | undefined {
  const keys = keysOf(ring);
  for (const [keyIndex, key] of keys.entries()) {
    try {
      return { plain: openWith(key, sealed), keyIndex };
    } catch {
      // Another key's value (its tag does not match), or an altered one: the next key is tried.
    }
  }
  return undefined;
}

/** Opens with whichever key of the ring sealed it; throws when none did (another key, or altered). */
export function decryptBankPass(ring: Buffer, sealed: Buffer): string {
  const opened = openBankPass(ring, sealed);
  if (!opened) throw new Error('No key of BANK_PASS_KEY opens this value: it was sealed with another key, or altered.');
  return opened.plain;
}
