// Messages from a folder of .eml files or from an mbox file, read as a stream so that a large
// mbox never sits in memory whole.
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
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

async function* emlFolder(folder: string): AsyncGenerator<RawMessage> {
  const names = (await readdir(folder)).filter((n) => n.toLowerCase().endsWith('.eml')).sort();
  for (const name of names) {
    const path = join(folder, name);
    const { size } = await stat(path);
    const raw = await readFile(path);
    // The folder is the source (Mail Flow counts by it), the file's name the message within it.
    const origin = `file:${folder}#${name}`;
    yield size > limits.messageBytes ? oversize(raw, size, origin) : { raw, size, origin };
  }
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

/** A folder is read as .eml files, anything else as an mbox. */
export async function* messagesFromPath(path: string): AsyncGenerator<RawMessage> {
  const absolute = resolve(path);
  const info = await stat(absolute);
  yield* info.isDirectory() ? emlFolder(absolute) : mbox(absolute);
}
