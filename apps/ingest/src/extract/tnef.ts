// Outlook's TNEF (winmail.dat, application/ms-tnef), as [MS-OXTNEF] lays it out: a signature, then
// attributes (level, id, length, data, checksum). Each attachment starts at attAttachRendData; its
// name is attAttachTitle, or the long file name among its MAPI properties (attAttachment); its
// bytes are attAttachData, or PR_ATTACH_DATA_BIN among those properties. The message's own body is
// taken too, as text (attBody, or PR_BODY among the message's MAPI properties) and as HTML
// (PR_HTML): a table pasted into the mail travels there. Compressed RTF is not read: Outlook
// sends the text beside it, and banks put their tables in attachments or HTML.
import iconv from 'iconv-lite';
import { ExtractionError } from './zip.ts';

const SIGNATURE = 0x223e9f78;
const LVL_ATTACHMENT = 0x02;
const ATT_ATTACH_REND_DATA = 0x9002;
const ATT_ATTACH_TITLE = 0x8010;
const ATT_ATTACH_DATA = 0x800f;
const ATT_ATTACHMENT = 0x9005;
const LVL_MESSAGE = 0x01;
const ATT_BODY = 0x800c;
const ATT_MSG_PROPS = 0x9003;
const ATT_OEM_CODEPAGE = 0x9007;
const PR_BODY = 0x1000;
const PR_HTML = 0x1013;
const PR_INTERNET_CPID = 0x3fde;
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

/** The OEM code page named in the stream, as iconv-lite knows it; Windows-1252 (Outlook's western default) otherwise. */
const codePageName = (page: number | undefined) => (page === 65001 ? 'utf8' : page && iconv.encodingExists(`cp${page}`) ? `cp${page}` : 'win1252');
const text8 = (bytes: Buffer, codePage = 'win1252') => iconv.decode(bytes, codePage).replace(/\0+$/, '');
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

interface MapiValue {
  type: number;
  value: Buffer;
}

/** The MAPI properties of a property list, by id (the first value of a multi-valued one). */
function mapiProperties(data: Buffer): Map<number, MapiValue> {
  const c = new Cursor(data);
  const out = new Map<number, MapiValue>();
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
    const variable = [PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT].includes(base);
    const values = type & MV_FLAG || variable ? c.u32() : 1;
    for (let v = 0; v < values; v++) {
      if (variable) {
        const length = c.u32();
        const value = c.take(length);
        c.take(((length + 3) & ~3) - length);
        if (!out.has(id)) out.set(id, { type: base, value });
      } else {
        const size = fixedSize[base];
        if (size === undefined) throw new ExtractionError(`the TNEF data has a MAPI property of unknown type 0x${base.toString(16)}`);
        const value = c.take(size);
        if (!out.has(id)) out.set(id, { type: base, value });
      }
    }
  }
  return out;
}

/**
 * The message's own properties. Those come in every shape Outlook has (types the attachments never
 * use): a list that cannot be walked leaves the body to attBody, and the files are read all the same.
 */
function messageProperties(data: Buffer): Map<number, MapiValue> {
  try {
    return mapiProperties(data);
  } catch {
    return new Map();
  }
}

/** A string property's text: UTF-16 when so typed, else in the message's code page. */
const mapiText = (p: MapiValue, codePage: string) => (p.type === PT_UNICODE ? text16(p.value) : text8(p.value, codePage));

/** What a TNEF stream holds that EJ Desk reads: its files in order, and its body as text and as HTML. */
interface Tnef {
  files: TnefFile[];
  text: string;
  html: string;
}

/** The files inside a TNEF stream, in order (a name missing is made from the position), and its bodies. */
export function readTnef(bytes: Uint8Array): Tnef {
  const c = new Cursor(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (c.bytes.length < 6 || c.u32() !== SIGNATURE) throw new ExtractionError('it is not TNEF (no TNEF signature at its start)');
  c.u16(); // the key, of no use for reading
  const files: { name?: string; title?: string; data?: Buffer }[] = [];
  let codePage: number | undefined;
  let attBody: Buffer | undefined;
  let message = new Map<number, MapiValue>();
  while (!c.done) {
    const level = c.u8();
    const id = c.u32() & 0xffff;
    const length = c.u32();
    const data = c.take(length);
    c.u16(); // checksum: Outlook's own files do not always get it right, and the data is used as is
    if (level === LVL_MESSAGE) {
      if (id === ATT_OEM_CODEPAGE && data.length >= 4) codePage = data.readUInt32LE(0);
      else if (id === ATT_BODY) attBody = data;
      else if (id === ATT_MSG_PROPS) message = messageProperties(data);
      continue;
    }
    if (level !== LVL_ATTACHMENT) continue;
    if (id === ATT_ATTACH_REND_DATA) files.push({});
    const current = files.at(-1);
    if (!current) continue;
    if (id === ATT_ATTACH_TITLE) current.title = text8(data);
    else if (id === ATT_ATTACH_DATA) current.data = data;
    else if (id === ATT_ATTACHMENT) {
      const properties = mapiProperties(data);
      const name = properties.get(PR_ATTACH_LONG_FILENAME) ?? properties.get(PR_ATTACH_FILENAME);
      if (name) current.name = mapiText(name, 'win1252');
      const content = properties.get(PR_ATTACH_DATA_BIN);
      // An embedded object starts with its interface's GUID.
      if (content) current.data ??= content.type === PT_OBJECT ? content.value.subarray(16) : content.value;
    }
  }
  const page = codePageName(codePage);
  const text = message.get(PR_BODY);
  const html = message.get(PR_HTML);
  const cpid = message.get(PR_INTERNET_CPID)?.value.readUInt32LE(0);
  return {
    files: files
      .filter((f): f is typeof f & { data: Buffer } => f.data !== undefined)
      .map((f, i) => ({ name: (f.name || f.title || `attachment-${i + 1}`).replace(/[\\/]/g, '_'), data: Buffer.from(f.data) })),
    text: text ? mapiText(text, page) : attBody ? text8(attBody, page) : '',
    // HTML is bytes in the message's internet code page (its <meta> may say so too).
    html: html ? (html.type === PT_UNICODE ? text16(html.value) : text8(html.value, codePageName(cpid ?? codePage))) : '',
  };
}
