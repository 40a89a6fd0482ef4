// The encrypted backup file. Two header lines anyone can read (what the file is, its format version,
// and how its key is made from the passphrase), then the backup sealed with AES-256-GCM under a key
// from scrypt, then GCM's 16-byte tag. The header is GCM's additional data, so a changed header is
// refused like a changed byte of the content, and its scrypt parameters can be raised in a later
// version without breaking the files made before.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file cannot be restored (or written), in words. */
export class BackupError extends Error {}

const magic = 'EJDESK-BACKUP\n';
const version = 1;
const tagBytes = 16;
/** Room for the two header lines; a file whose second line does not end within it is no backup of ours. */
const headerLimit = 4096;

/** scrypt's cost: N (a power of two), r and p; memory is about 128 × N × r bytes. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** This build's cost: 128 MiB and about half a second on one core, once per backup or restore. */
const backupScrypt: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

interface SealedHeader {
  /** The header's bytes as written: GCM's additional data. */
  bytes: Buffer;
  scrypt: ScryptParams;
  salt: Buffer;
  nonce: Buffer;
  check: Buffer;
}

const damaged = () => new BackupError('The backup was altered or damaged after it was written (it fails its integrity check); nothing was restored.');
const wrongPassphrase = () => new BackupError('The passphrase does not open this backup.');

// The key and a check of the passphrase, from one scrypt: a wrong passphrase is told apart from a
// damaged file without reading the file (and the check gives a guesser nothing: scrypt is the cost).
async function keysOf(passphrase: string, salt: Buffer, params: ScryptParams): Promise<{ key: Buffer; check: Buffer }> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  const derived = await new Promise<Buffer>((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 64, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
  const check = createHmac('sha256', derived.subarray(32)).update('EJ Desk backup passphrase').digest().subarray(0, 16);
  return { key: derived.subarray(0, 32), check };
}

/** The backup `content` sealed under `passphrase`: the header, the encrypted content as it comes, the tag. */
export async function* sealed(content: AsyncIterable<Buffer>, passphrase: string, params: ScryptParams = backupScrypt): AsyncGenerator<Buffer> {
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const { key, check } = await keysOf(passphrase, salt, params);
  const fields = { version, cipher: 'aes-256-gcm', kdf: 'scrypt', ...params, salt: salt.toString('base64'), nonce: nonce.toString('base64') };
  const header = Buffer.from(`${magic}${JSON.stringify({ ...fields, check: check.toString('base64') })}\n`);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: tagBytes });
  cipher.setAAD(header);
  yield header;
  for await (const chunk of content) yield cipher.update(chunk);
  yield cipher.final();
  yield cipher.getAuthTag();
}

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0;

/** What the second header line must hold; bounds on scrypt keep a crafted file from taking the machine's memory. */
function headerFields(line: string): Omit<SealedHeader, 'bytes'> {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw damaged();
  }
  if (typeof fields.version !== 'number') throw damaged();
  if (fields.version > version) {
    throw new BackupError(`It is an EJ Desk backup of format version ${fields.version}; this build reads version ${version}: restore it with a newer EJ Desk.`);
  }
  const { N, r, p, salt, nonce, check } = fields as { N: number; r: number; p: number; salt: unknown; nonce: unknown; check: unknown };
  const bytesOf = (value: unknown, length: number) => {
    const decoded = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
    if (decoded.length !== length) throw damaged();
    return decoded;
  };
  if (fields.cipher !== 'aes-256-gcm' || fields.kdf !== 'scrypt') throw damaged();
  if (!isPowerOfTwo(N) || N > 2 ** 22 || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16 || 128 * N * r > 2 ** 30) {
    throw new BackupError(`Its scrypt parameters (N ${N}, r ${r}, p ${p}) are beyond what this build accepts (at most 1 GiB of memory).`);
  }
  return { scrypt: { N, r, p }, salt: bytesOf(salt, 16), nonce: bytesOf(nonce, 12), check: bytesOf(check, 16) };
}

/** The header of an encrypted backup, or null when the file does not start as one. */
export function sealedHeader(path: string): SealedHeader | null {
  const fd = openSync(path, 'r');
  const start = Buffer.alloc(headerLimit);
  let length: number;
  try {
    length = readSync(fd, start, 0, headerLimit, 0);
  } finally {
    closeSync(fd);
  }
  if (!start.subarray(0, magic.length).equals(Buffer.from(magic))) return null;
  const end = start.indexOf('\n', magic.length);
  if (end < 0 || end >= length) throw damaged();
  return { bytes: Buffer.from(start.subarray(0, end + 1)), ...headerFields(start.subarray(magic.length, end).toString()) };
}

/**
 * The content of the encrypted backup at `path`, once GCM has vouched for every byte of it (and of
 * the header): nothing of a changed file is ever handed on. One buffer the content's size.
 */
export async function openSealed(path: string, header: SealedHeader, passphrase: string): Promise<Buffer> {
  const { key, check } = await keysOf(passphrase, header.salt, header.scrypt);
  if (!timingSafeEqual(check, header.check)) throw wrongPassphrase();
  const fd = openSync(path, 'r');
  const tag = Buffer.alloc(tagBytes);
  let size: number;
  try {
    size = fstatSync(fd).size;
    if (size < header.bytes.length + tagBytes) throw damaged();
    readSync(fd, tag, 0, tagBytes, size - tagBytes);
  } finally {
    closeSync(fd);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, header.nonce, { authTagLength: tagBytes });
  decipher.setAAD(header.bytes);
  decipher.setAuthTag(tag);
  const content = Buffer.allocUnsafe(size - header.bytes.length - tagBytes);
  let at = 0;
  if (content.length > 0) {
    for await (const chunk of createReadStream(path, { start: header.bytes.length, end: size - tagBytes - 1 })) {
      at += decipher.update(chunk as Buffer).copy(content, at);
    }
  }
  try {
    decipher.final();
  } catch {
    content.fill(0);
    throw damaged();
  }
  return content;
}
