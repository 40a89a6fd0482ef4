import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes).
export const hashPassword = (plain: string) => hash(plain);

// Verifying against a fixed hash when the account is unknown keeps response times alike, so timing
// does not reveal which e-mail addresses have accounts.
const unknownAccountHash = hash('no such account');

export async function verifyPassword(stored: string | undefined, plain: string): Promise<boolean> {
  try {
    return await verify(stored ?? (await unknownAccountHash), plain);
  } catch {
    return false;
  }
}
