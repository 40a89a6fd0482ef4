// S/MIME as mail clients send it: opaque signed mail (application/pkcs7-mime, signed-data) holds
// the real message inside a CMS SignedData structure; it is taken out and read like any message.
// The signature is not checked: EJ Desk reads what the bank sent, it does not vouch for it.
// Encrypted mail (enveloped-data) cannot be read without the recipient's key: a failure says so.
import * as asn1js from 'asn1js';
import { ContentInfo, SignedData } from 'pkijs';
import { ExtractionError } from './zip.ts';

const AUTH_ENVELOPED_DATA = '1.2.840.113549.1.9.16.1.23';

/** The DER/BER bytes of a .p7m: as sent (binary), or base64 text when a client wrapped it so. */
function derOf(bytes: Uint8Array): Uint8Array {
  if (bytes[0] === 0x30) return bytes;
  const text = Buffer.from(bytes)
    .toString('latin1')
    .replace(/-----[^-]+-----/g, '');
  if (/^[A-Za-z0-9+/=\s]+$/.test(text)) return Buffer.from(text, 'base64');
  return bytes;
}

/** The signed content (a MIME entity) of an opaque S/MIME signed message. */
export function signedContent(bytes: Uint8Array): Buffer {
  const parsed = asn1js.fromBER(derOf(bytes));
  if (parsed.offset === -1) throw new ExtractionError('the S/MIME part is not CMS (it could not be decoded)');
  let info: ContentInfo;
  try {
    info = new ContentInfo({ schema: parsed.result });
  } catch {
    throw new ExtractionError('the S/MIME part is not CMS (no ContentInfo)');
  }
  if (info.contentType === ContentInfo.ENVELOPED_DATA || info.contentType === AUTH_ENVELOPED_DATA) {
    throw new ExtractionError('the message is S/MIME encrypted: it can be read only with the recipient’s private key, which EJ Desk does not hold');
  }
  if (info.contentType !== ContentInfo.SIGNED_DATA) throw new ExtractionError(`the S/MIME part holds CMS content of type ${info.contentType}, not signed data`);
  const signed = new SignedData({ schema: info.content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new ExtractionError('the S/MIME signature is detached: the signed content is not inside it');
  return Buffer.from(content.getValue());
}
