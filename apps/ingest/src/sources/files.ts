// What `pnpm ingest --from` reads: messages from .eml files and mbox files (read as a stream, so
// that a large mbox never sits in memory whole), and the journal files and ZIPs beside them.
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { limits } from '../limits.ts';
import type { RawMessage } from '../message.ts';

const HEADERS_KEPT = 256 * 1024;

function oversize(raw: Buffer, size: number, origin: string): RawMessage {
  return {
    raw: raw.subarray(0, HEADERS_KEPT),
    size,
    origin,
    fetchError: `the message is ${limits.mb(size)}, over the ${limits.mb(limits.messageBytes)} limit: only its start was kept`,
  };
}

async function emlFile(path: string): Promise<RawMessage> {
  const { size } = await stat(path);
  const raw = await readFile(path);
  // The folder is the source (Mail Flow counts by it), the file's name the message within it.
  const origin = `file:${dirname(path)}#${basename(path)}`;
  return size > limits.messageBytes ? oversize(raw, size, origin) : { raw, size, origin };
}

/** mboxrd: a message starts at a "From " line; its own lines ">From " (any number of >) lose one ">". */
async function* mbox(path: string): AsyncGenerator<RawMessage> {
  let lines: Buffer[] = [];
  let size = 0;
  let index = 0;
  let truncated = false;
  let carry = Buffer.alloc(0);
  const finish = function* (): Generator<RawMessage> {
    if (index > 0 && (lines.length || truncated)) {
      const raw = Buffer.concat(lines);
      const origin = `mbox:${path}#${index}`;
      yield truncated ? oversize(raw, size, origin) : { raw, size, origin };
    }
    lines = [];
    size = 0;
    truncated = false;
  };
  const take = function* (line: Buffer): Generator<RawMessage> {
    if (line.subarray(0, 5).toString('latin1') === 'From ') {
      yield* finish();
      index++;
      return;
    }
    if (index === 0) return; // not an mbox line before the first separator
    const unescaped = /^>+From /.test(line.subarray(0, 64).toString('latin1')) ? line.subarray(1) : line;
    size += unescaped.length;
    if (size > limits.messageBytes) truncated = true;
    else lines.push(unescaped);
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      yield* take(data.subarray(start, nl + 1));
      start = nl + 1;
    }
    carry = Buffer.from(data.subarray(start));
    data = Buffer.alloc(0);
  }
  if (carry.length) yield* take(carry);
  yield* finish();
}

/** What a file is, from its name and first bytes: a message, an mbox, a ZIP, or anything else (maybe a journal). */
export type PathKind = 'eml' | 'mbox' | 'zip' | 'other';

async function kindOf(path: string): Promise<PathKind> {
  if (path.toLowerCase().endsWith('.eml')) return 'eml';
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(5), 0, 5, 0);
    const start = buffer.subarray(0, bytesRead);
    if (start.toString('latin1') === 'From ') return 'mbox';
    if (start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
    return 'other';
  } finally {
    await file.close();
  }
}

export interface PathContents {
  /** The path as given, made absolute. */
  path: string;
  isFolder: boolean;
  /** The folder's files (or the one file), in name order, with what each is. */
  files: { path: string; name: string; kind: PathKind }[];
}

/**
 * What a path holds: a folder's files in name order (subfolders are not entered), or the one
 * file. A file is an .eml message by its name, an mbox by its first line ("From "), a ZIP by its
 * signature; anything else may be a journal, which its content decides when it is received.
 */
export async function contentsOf(given: string): Promise<PathContents> {
  const path = resolve(given);
  const info = await stat(path);
  if (!info.isDirectory()) return { path, isFolder: false, files: [{ path, name: basename(path), kind: await kindOf(path) }] };
  const files: PathContents['files'] = [];
  for (const entry of (await readdir(path, { withFileTypes: true })).filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const file = join(path, entry.name);
    files.push({ path: file, name: entry.name, kind: await kindOf(file) });
  }
  return { path, isFolder: true, files };
}

/** The messages of a path's .eml and mbox files, in name order. */
export async function* messagesIn(contents: PathContents): AsyncGenerator<RawMessage> {
  for (const file of contents.files) {
    if (file.kind === 'eml') yield await emlFile(file.path);
    else if (file.kind === 'mbox') yield* mbox(file.path);
  }
}
