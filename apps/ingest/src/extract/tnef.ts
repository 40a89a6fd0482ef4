// Outlook's TNEF (winmail.dat, application/ms-tnef), as [MS-OXTNEF] lays it out: a signature, then
// attributes (level, id, length, data, checksum). Each attachment starts at attAttachRendData; its
// name is attAttachTitle, or the long file name among its MAPI properties (attAttachment); its
// bytes are attAttachData, or PR_ATTACH_DATA_BIN among those properties. Only attachments are
// taken out: the message's own text (compressed RTF) is not where banks put dispute tables.
import iconv from 'iconv-lite';
import { ExtractionError } from './zip.ts';

const SIGNATURE = 0x223e9f78;
const LVL_ATTACHMENT = 0x02;
const ATT_ATTACH_REND_DATA = 0x9002;
const ATT_ATTACH_TITLE = 0x8010;
const ATT_ATTACH_DATA = 0x800f;
const ATT_ATTACHMENT = 0x9005;
const PR_ATTACH_LONG_FILENAME = 0x3707;
const PR_ATTACH_FILENAME = 0x3704;
const PR_ATTACH_DATA_BIN = 0x3701;
const PT_STRING8 = 0x001e;
const PT_UNICODE = 0x001f;
const PT_BINARY = 0x0102;
const PT_OBJECT = 0x000d;
const MV_FLAG = 0x1000;
/** Sizes of the fixed-length MAPI property types (a value shorter than 4 bytes is padded to 4). */
const fixedSize: Record<number, number> = { 0x02: 4, 0x03: 4, 0x04: 4, 0x05: 8, 0x06: 8, 0x07: 8, 0x0a: 4, 0x0b: 4, 0x14: 8, 0x40: 8, 0x48: 16 };

interface TnefFile {
  name: string;
  data: Buffer;
}

const text8 = (bytes: Buffer) => iconv.decode(bytes, 'win1252').replace(/\0+$/, '');
const text16 = (bytes: Buffer) => bytes.toString('utf16le').replace(/\0+$/, '');

/** A reader over the bytes that refuses, in words, to go past their end. */
class Cursor {
  at = 0;
  constructor(readonly bytes: Buffer) {}
  need(n: number): void {
    if (n < 0 || this.at + n > this.bytes.length) throw new ExtractionError('the TNEF data ends in the middle of an attribute (the file is cut or corrupt)');
  }
  u8() {
    this.need(1);
    return this.bytes.readUInt8(this.at++);
  }
  u16() {
    this.need(2);
    this.at += 2;
    return this.bytes.readUInt16LE(this.at - 2);
  }
  u32() {
    this.need(4);
    this.at += 4;
    return this.bytes.readUInt32LE(this.at - 4);
  }
  take(n: number): Buffer {
    this.need(n);
    this.at += n;
    return this.bytes.subarray(this.at - n, this.at);
  }
  get done() {
    return this.at >= this.bytes.length;
  }
}

/** The MAPI properties of an attachment: its long file name and its bytes, when given there. */
function attachmentProperties(data: Buffer): { name?: string; data?: Buffer } {
  const c = new Cursor(data);
  const out: { name?: string; data?: Buffer } = {};
  const count = c.u32();
  for (let i = 0; i < count && !c.done; i++) {
    const type = c.u16();
    const id = c.u16();
    if (id >= 0x8000) {
      c.take(16); // the named property's GUID
      if (c.u32() === 0) c.u32();
      else c.take((c.u32() + 3) & ~3);
    }
    const base = type & ~MV_FLAG;
    const values = type & MV_FLAG || [PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT].includes(base) ? c.u32() : 1;
    for (let v = 0; v < values; v++) {
      if ([PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT].includes(base)) {
        const length = c.u32();
        const value = c.take(length);
        c.take(((length + 3) & ~3) - length);
        if (id === PR_ATTACH_LONG_FILENAME || (id === PR_ATTACH_FILENAME && !out.name)) out.name = base === PT_UNICODE ? text16(value) : text8(value);
        if (id === PR_ATTACH_DATA_BIN) out.data = base === PT_OBJECT ? value.subarray(16) : value; // an object starts with its interface's GUID
      } else {
        const size = fixedSize[base];
        if (size === undefined) throw new ExtractionError(`the TNEF attachment has a property of unknown type 0x${base.toString(16)}`);
        c.take(size);
      }
    }
  }
  return out;
}

/** The files inside a TNEF stream, in order; a name missing is made from the position. */
export function tnefAttachments(bytes: Uint8Array): TnefFile[] {
  const c = new Cursor(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (c.bytes.length < 6 || c.u32() !== SIGNATURE) throw new ExtractionError('it is not TNEF (no TNEF signature at its start)');
  c.u16(); // the key, of no use for reading
  const files: { name?: string; title?: string; data?: Buffer }[] = [];
  while (!c.done) {
    const level = c.u8();
    const id = c.u32() & 0xffff;
    const length = c.u32();
    const data = c.take(length);
    c.u16(); // checksum: Outlook's own files do not always get it right, and the data is used as is
    if (level !== LVL_ATTACHMENT) continue;
    if (id === ATT_ATTACH_REND_DATA) files.push({});
    const current = files.at(-1);
    if (!current) continue;
    if (id === ATT_ATTACH_TITLE) current.title = text8(data);
    else if (id === ATT_ATTACH_DATA) current.data = data;
    else if (id === ATT_ATTACHMENT) {
      const properties = attachmentProperties(data);
      current.name = properties.name ?? current.name;
      current.data ??= properties.data;
    }
  }
  return files
    .filter((f): f is typeof f & { data: Buffer } => f.data !== undefined)
    .map((f, i) => ({ name: (f.name || f.title || `attachment-${i + 1}`).replace(/[\\/]/g, '_'), data: Buffer.from(f.data) }));
}
