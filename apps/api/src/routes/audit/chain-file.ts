// The audit chain as a file an auditor checks without EJ Desk: one JSON line per entry, exactly as
// hashed (the time to the microsecond, the user's id), with its two hashes and the user's email,
// oldest first; then one line that signs them. The signature (Ed25519) is over the SHA-256 of every
// line before it, newline included, so a line changed, removed or added after the export shows
// even where the chain itself was rebuilt. The key is derived from the token signing secret, so
// every API instance signs alike; its public half is in the signature line (docs/disputes.md).
import { createHash, createHmac, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { ChainEntry } from '@ejdesk/db';

/** PKCS #8's fixed prefix for an Ed25519 private key of 32 raw bytes (RFC 8410). */
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

interface ChainSigner {
  privateKey: KeyObject;
  publicKeyPem: string;
}

export function chainSigner(secret: string): ChainSigner {
  const seed = createHmac('sha256', secret).update('EJ Desk audit chain signing key, version 1').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ed25519Pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() };
}

/** The file's lines, as they are read: each entry, then the signature over them all. */
export async function* chainFileLines(batches: AsyncIterable<ChainEntry[]>, signer: ChainSigner): AsyncGenerator<string> {
  const digest = createHash('sha256');
  let entries = 0;
  let first: string | null = null;
  let last: string | null = null;
  for await (const batch of batches) {
    let text = '';
    for (const entry of batch) {
      text += `${JSON.stringify(entry)}\n`;
      entries += 1;
      first ??= entry.prev_hash;
      last = entry.hash;
    }
    digest.update(text, 'utf8');
    yield text;
  }
  const sha256 = digest.digest('hex');
  const value = sign(null, Buffer.from(sha256, 'utf8'), signer.privateKey).toString('base64');
  yield `${JSON.stringify({
    signature: {
      algorithm: 'Ed25519',
      signed: 'the hex SHA-256 of every line above, each with its newline',
      sha256,
      value,
      public_key: signer.publicKeyPem,
      entries,
      first_prev_hash: first,
      last_hash: last,
    },
  })}\n`;
}
