// The one state machine every family shares: lines become events (the family's patterns), events
// become transactions, and at the end of the file each withdrawal gets its verdict from the rules in
// docs/journals.md. Denominations and ambiguous dates are resolved only at the end, since a journal
// may print its cassette table (or an unambiguous date) after the transactions it explains.
import type { EventKind, Family } from './families/family.ts';
import { fromFileName } from './filename.ts';
import type { Anomaly, AnomalyKind, CassetteCount, CounterSnapshot, JournalTransaction, ParsedJournal, Verdict } from './types.ts';

const months: Record<string, number> = { JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };

/** A date as the journal printed it; `open` when day and month could be either way round. */
interface DateParts {
  year: number;
  /** Month, or the first number when open. */
  a: number;
  /** Day, or the second number when open. */
  b: number;
  open: boolean;
}

/** Where the transaction stopped being readable. */
type Interruption = { kind: 'restart' | 'gap' | 'end'; line: number };

interface Txn {
  from: number;
  to: number;
  date: DateParts | null;
  time: string | null;
  atm: string | null;
  card: string | null;
  rrn: string | null;
  stan: string | null;
  serial: string | null;
  code: string | null;
  codeLine: number | null;
  /** Amounts in paise. */
  entered: number | null;
  receipt: number | null;
  /** The request's amount field as printed: rupees or paise, settled at the end. */
  requestField: number | null;
  requested: boolean;
  responseLine: number | null;
  declinedLine: number | null;
  stacked: number[] | null;
  /** The line that counted the stacked notes (Hyosung's DISPENSE CST1:00 CST2:05): evidence once they are presented. */
  stackedLine: number | null;
  presented: number[] | null;
  presentedLines: number[];
  awaitingCounts: boolean;
  taken: number | null;
  retracted: number | null;
  timeout: number | null;
  failure: number | null;
  reversal: number | null;
  /** Every failure and reversal line (evidence). */
  failures: number[];
  reversals: number[];
  interrupted: Interruption | null;
  cutStart: boolean;
}

interface Snapshot {
  line: number;
  date: DateParts | null;
  time: string | null;
  /** A table laid out by field, its rows by name until the table ends (then its cassettes say it all). */
  rows: Map<string, number[]> | null;
  cassettes: CassetteCount[];
}

const blankTxn = (from: number): Txn => ({
  from,
  to: from,
  date: null,
  time: null,
  atm: null,
  card: null,
  rrn: null,
  stan: null,
  serial: null,
  code: null,
  codeLine: null,
  entered: null,
  receipt: null,
  requestField: null,
  requested: false,
  responseLine: null,
  declinedLine: null,
  stacked: null,
  stackedLine: null,
  presented: null,
  presentedLines: [],
  awaitingCounts: false,
  taken: null,
  retracted: null,
  timeout: null,
  failure: null,
  reversal: null,
  failures: [],
  reversals: [],
  interrupted: null,
  cutStart: false,
});

/** Rupees as printed ('2,000.00', '2000') to paise; null when it is not an amount. */
function paise(text: string | undefined): number | null {
  if (!text) return null;
  const m = /^(\d+)(?:\.(\d\d))?$/.exec(text.replace(/,/g, ''));
  if (!m) return null;
  const value = Number(m[1]) * 100 + Number(m[2] ?? 0);
  return Number.isSafeInteger(value) ? value : null;
}

const rupees = (p: number) => `${Math.floor(p / 100)}.${String(p % 100).padStart(2, '0')}`;

/** Notes per cassette: '0,4,0,0', '0 4 0 0', '1:0 2:4', 'CST1:00 CST2:05', or two digits each ('0204'). */
function counts(groups: Record<string, string | undefined>): number[] | null {
  if (groups.pairs) {
    const pairs = groups.pairs.match(/\d\d/g);
    return pairs ? pairs.map(Number) : null;
  }
  const fromCst: number[] = [];
  for (let i = 1; i <= 8; i++) {
    const v = groups[`cst${i}`];
    if (v !== undefined) fromCst[i - 1] = Number(v);
  }
  if (fromCst.length) return dense(fromCst);
  const text = groups.notes;
  if (!text) return null;
  const tokens = text.match(/\d+(?:\s*[:=]\s*\d+)?/g);
  if (!tokens || tokens.length > 16) return null;
  if (/[:=]/.test(text)) {
    const out: number[] = [];
    for (const token of tokens) {
      const [position, count] = token.split(/\s*[:=]\s*/).map(Number);
      if (!position || position > 16 || count === undefined) return null;
      out[position - 1] = count;
    }
    return dense(out);
  }
  return tokens.map(Number);
}

/** A sparse array with its holes as zeros. */
function dense(values: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) out.push(values[i] ?? 0);
  return out;
}

function fullYear(y: string | undefined): number {
  return y === undefined ? NaN : y.length === 2 ? 2000 + Number(y) : Number(y);
}

const lastFour = (card: string) => {
  const digits = card.replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
};

function datePartsOf(g: Record<string, string | undefined>): DateParts | null {
  if (g.p1 && g.p2) {
    const a = Number(g.p1);
    const b = Number(g.p2);
    const y = fullYear(g.year);
    if (!(a >= 1 && b >= 1 && a <= 31 && b <= 31) || !(y >= 1990 && y <= 2099)) return null;
    if (a > 12 && b > 12) return null;
    // Settled here when one of the two cannot be a month.
    if (a > 12) return { year: y, a: b, b: a, open: false };
    if (b > 12) return { year: y, a, b, open: false };
    return { year: y, a, b, open: true };
  }
  const month = g.mon ? months[g.mon.toUpperCase()] : g.month ? Number(g.month) : undefined;
  const day = g.day ? Number(g.day) : undefined;
  const y = fullYear(g.year);
  if (!month || !day || month > 12 || day > 31 || !(y >= 1990 && y <= 2099)) return null;
  return { year: y, a: month, b: day, open: false };
}

/** A date as one number, for sets of dates (year, then the two numbers as printed). */
const dateKey = (year: number, a: number, b: number) => year * 10000 + a * 100 + b;

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' of a date, reading an open one in the given order. */
function isoDay(d: DateParts, order: 'mdy' | 'dmy'): string {
  const [month, day] = d.open && order === 'dmy' ? [d.b, d.a] : [d.a, d.b];
  return `${d.year}-${pad(month)}-${pad(day)}`;
}

const normalTime = (t: string) => (t.length === 5 ? `${t}:00` : t);

/**
 * A line's text as kept: a copy, since the line is a slice of its whole decoded chunk, which a kept
 * slice would keep in memory with it.
 */
const trimText = (text: string) => (' ' + text.trim().slice(0, 200)).slice(1);

/** A match's named groups, read by the engine; every one of them present, so that all share one layout. */
type Groups = Record<string, string | undefined>;

/** The group names the engine reads (docs of LinePattern), in a fixed order: one object layout for all. */
const groupNames = [
  ...['p1', 'p2', 'year', 'month', 'day', 'mon', 'time', 'atm', 'card', 'amount', 'minor', 'rrn', 'stan', 'serial', 'code'],
  ...['device', 'status', 'notes', 'pairs', 'cst1', 'cst2', 'cst3', 'cst4', 'cst5', 'cst6', 'cst7', 'cst8'],
  ...['field', 'values', 'position', 'denom', 'init', 'dispensed', 'rejected', 'remaining'],
];

function blankGroups(): Groups {
  const g: Groups = {};
  for (const name of groupNames) g[name] = undefined;
  return g;
}

/**
 * The pattern with its named groups made plain ones, and where each name's capture is: a match then
 * builds no groups object of its own (a dictionary per line), and the engine reads one of a single
 * layout. Null when the expression refers to a group by name (it is then run as written).
 */
function numbered(re: RegExp): { re: RegExp; slots: [string, number][] } | null {
  const src = re.source;
  if (src.includes('\\k<')) return null;
  let out = '';
  let group = 0;
  let inClass = false;
  const slots: [string, number][] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      out += src.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '(' && src[i + 1] !== '?') {
      group++;
      out += c;
    } else if (c === '(' && src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!') {
      const close = src.indexOf('>', i);
      slots.push([src.slice(i + 3, close), ++group]);
      out += '(';
      i = close;
    } else out += c;
  }
  return { re: new RegExp(out, re.flags), slots };
}

interface Compiled {
  event: EventKind;
  re: RegExp;
  /** Where each named group's capture is in a match of `re` (null: read `groups` of the match). */
  slots: [string, number][] | null;
  /** The groups object this pattern's matches are read into (reused: the engine keeps none of it). */
  into: Groups;
  /** Whether the pattern has any date group, and the other groups the engine reads everywhere. */
  date: boolean;
  groups: ReadonlySet<string>;
  /** The groups a transaction takes as they are (time, atm, card, rrn, stan, serial, code). */
  names: string[];
  /** Ids of the hints (one of them must be on the line); null: always tried. */
  hints: number[] | null;
}

/**
 * A family's patterns with their hints gathered in one expression, so that a line is scanned once for
 * every hint rather than once per pattern; `within[id]` are the hints inside hint `id` (a scan that
 * finds 'NOTES TAKEN' has found 'TAKEN' too).
 */
interface Dispatch {
  patterns: Compiled[];
  gate: RegExp | null;
  ids: Map<string, number>;
  within: number[][];
  seen: Uint32Array;
  generation: number;
  /** Line shape (a hash of the text with digits as 0) -> the index of the pattern that reads it, -1 for none. */
  shapes: Map<number, number>;
}

/** Two 26-bit string hashes of the text with every digit as '0', as one number (collisions: 2^-52). */
function shapeOf(text: string): number {
  let a = 0x811c9dc5;
  let b = 5381;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) c = 48;
    a = Math.imul(a ^ c, 0x01000193);
    b = (Math.imul(b, 33) + c) | 0;
  }
  return (a >>> 6) * 0x4000000 + (b >>> 6);
}

function remember(d: Dispatch, shape: number, index: number): void {
  // Bounded: a journal of ever-new shapes (free text) starts the memory over.
  if (d.shapes.size >= 20000) d.shapes.clear();
  d.shapes.set(shape, index);
}

const dispatches = new WeakMap<Family, Dispatch>();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function dispatchOf(family: Family): Dispatch {
  let d = dispatches.get(family);
  if (d) return d;
  const ids = new Map<string, number>();
  const idOf = (hint: string) => {
    const key = family.mixedCase ? hint.toUpperCase() : hint;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  const patterns = family.patterns.map((p): Compiled => {
    const plain = numbered(p.re);
    return {
      event: p.event,
      re: plain?.re ?? p.re,
      slots: plain?.slots ?? null,
      into: blankGroups(),
      groups: new Set([...p.re.source.matchAll(/\(\?<([A-Za-z]\w*)>/g)].map((m) => m[1]!)),
      date: /\(\?<(?:p1|day|mon|month)>/.test(p.re.source),
      names: ['time', 'atm', 'card', 'rrn', 'stan', 'serial', 'code'].filter((n) => p.re.source.includes(`(?<${n}>`)),
      hints: p.hint === undefined ? null : (typeof p.hint === 'string' ? [p.hint] : [...p.hint]).map(idOf),
    };
  });
  const hints = [...ids.keys()];
  const within = hints.map((outer) => hints.flatMap((inner, id) => (outer.includes(inner) ? [id] : [])));
  // Longest first: at each position the longest hint is reported, the ones inside it come with it.
  const alternatives = [...hints].sort((x, y) => y.length - x.length).map(escape);
  const gate = alternatives.length ? new RegExp(alternatives.join('|'), family.mixedCase ? 'gi' : 'g') : null;
  d = { patterns, gate, ids, within, seen: new Uint32Array(hints.length), generation: 0, shapes: new Map() };
  dispatches.set(family, d);
  return d;
}

/** Marks the hints on the line in `d.seen` with a new generation. */
function scanHints(d: Dispatch, text: string): number {
  const generation = ++d.generation;
  const gate = d.gate;
  if (!gate) return generation;
  gate.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = gate.exec(text))) {
    const id = d.ids.get(gate.ignoreCase ? m[0].toUpperCase() : m[0])!;
    for (const inner of d.within[id]!) d.seen[inner] = generation;
    // Overlapping hints start later on the line: look again one character on.
    gate.lastIndex = m.index + 1;
  }
  return generation;
}

function seenAny(d: Dispatch, hints: number[], generation: number): boolean {
  for (const id of hints) if (d.seen[id] === generation) return true;
  return false;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 0x1b && c !== 12) return false;
  }
  return true;
}

/** The named groups of a match, in the pattern's own groups object. */
function groupsOf(pattern: Compiled, m: RegExpExecArray): Groups {
  const slots = pattern.slots;
  if (slots === null) return m.groups ?? {};
  const g = pattern.into;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    g[slot[0]] = m[slot[1]];
  }
  return g;
}

const num = (v: string | undefined) => (v === undefined ? null : Number(v));

/** Reads one journal's lines, in order, with one family's patterns. */
export class JournalReader {
  private readonly txns: Txn[] = [];
  private open: Txn | null = null;
  private readonly snapshots: Snapshot[] = [];
  private snapshot: Snapshot | null = null;
  private readonly anomalies: Anomaly[] = [];
  private lineCount = 0;
  private unknown = 0;
  private date: DateParts | null = null;
  private time: string | null = null;
  private atm: string | null = null;
  private firstDate: DateParts | null = null;
  /** Dates printed in an order the file settles (as dateKey): votes for how to read the open ones. */
  private readonly settled = new Set<number>();
  /** Each open date once (by dateKey, in the order first seen), with how many lines printed it. */
  private readonly openDates = new Map<number, { date: DateParts; lines: number }>();
  private seenStart = false;
  /** The stamp (NCR's sequence header) on the line before, which opens the transaction that starts next. */
  private stampLine: number | null = null;

  private readonly dispatch: Dispatch;

  constructor(
    private readonly family: Family,
    private readonly fileName?: string,
  ) {
    this.dispatch = dispatchOf(family);
  }

  line(no: number, text: string): void {
    this.lineCount = no;
    if (isBlank(text)) return;
    const d = this.dispatch;
    // Journals repeat a few hundred line shapes (the same words, other digits): a shape seen before
    // goes straight to the pattern that read it, or is known to be unknown.
    const shape = text.length <= 400 ? shapeOf(text) : null;
    const known = shape === null ? undefined : d.shapes.get(shape);
    if (known !== undefined) {
      if (known < 0) {
        this.unknownLine(no);
        return;
      }
      const pattern = d.patterns[known]!;
      const m = pattern.re.exec(text);
      if (m) {
        this.event(pattern, groupsOf(pattern, m), no, text);
        return;
      }
    }
    const generation = scanHints(d, text);
    for (let i = 0; i < d.patterns.length; i++) {
      const pattern = d.patterns[i]!;
      if (pattern.hints !== null && !seenAny(d, pattern.hints, generation)) continue;
      const m = pattern.re.exec(text);
      if (!m) continue;
      if (shape !== null) remember(d, shape, i);
      this.event(pattern, groupsOf(pattern, m), no, text);
      return;
    }
    if (shape !== null) remember(d, shape, -1);
    this.unknownLine(no);
  }

  private unknownLine(no: number): void {
    this.unknown++;
    this.stampLine = null;
    if (this.open) this.open.to = no;
  }

  private anomaly(line: number, kind: AnomalyKind, text: string): void {
    this.anomalies.push({ line, kind, text: trimText(text) });
  }

  /** The date groups of the last dated line, its date, and that date's count of lines when open. */
  private readonly lastDate = { p1: '', p2: '', year: '', month: '', day: '', mon: '', parts: null as DateParts | null };
  private lastOpen: { date: DateParts; lines: number } | null = null;

  /** The line's date: the one before when the line prints the same (most lines of a dated journal do). */
  private dateOf(g: Groups): DateParts | null {
    const l = this.lastDate;
    if (g.p1 === l.p1 && g.p2 === l.p2 && g.year === l.year && g.month === l.month && g.day === l.day && g.mon === l.mon) return l.parts;
    l.p1 = g.p1!;
    l.p2 = g.p2!;
    l.year = g.year!;
    l.month = g.month!;
    l.day = g.day!;
    l.mon = g.mon!;
    return (l.parts = datePartsOf(g));
  }

  private noteDate(d: DateParts): void {
    if (!this.firstDate) this.firstDate = d;
    if (d.open) {
      if (this.lastOpen?.date === d) {
        this.lastOpen.lines++;
        return;
      }
      const key = dateKey(d.year, d.a, d.b);
      let seen = this.openDates.get(key);
      if (seen) seen.lines++;
      else this.openDates.set(key, (seen = { date: d, lines: 1 }));
      this.lastOpen = seen;
    } else this.settled.add(dateKey(d.year, d.a, d.b));
  }

  /** The transaction the line belongs to; at the top of a file, one that began before it. */
  private current(no: number, kind: EventKind): Txn | null {
    if (this.open) return this.open;
    const money =
      kind === 'presented' ||
      kind === 'counts' ||
      kind === 'taken' ||
      kind === 'retracted' ||
      kind === 'timeout' ||
      kind === 'failure' ||
      kind === 'status' ||
      kind === 'stacked' ||
      kind === 'response' ||
      kind === 'request' ||
      kind === 'reversal';
    if (!this.seenStart && money) {
      this.seenStart = true;
      const txn = blankTxn(no);
      txn.cutStart = true;
      txn.date = this.date;
      txn.time = this.time;
      this.open = txn;
      this.anomaly(no, 'cut', 'The journal begins inside a transaction.');
      return txn;
    }
    return null;
  }

  private closeSnapshot(): void {
    const s = this.snapshot;
    if (!s) return;
    this.snapshot = null;
    const rows = s.rows;
    s.rows = null;
    if (rows?.size) {
      let width = 0;
      for (const v of rows.values()) width = Math.max(width, v.length);
      const denomination = rows.get('DENOMINATION');
      const dispensed = rows.get('DISPENSED');
      const rejected = rows.get('REJECTED');
      const remaining = rows.get('REMAINING');
      for (let i = 0; i < width; i++) {
        s.cassettes.push({
          position: i + 1,
          denomination: denomination?.[i] ?? null,
          dispensed: dispensed?.[i] ?? null,
          rejected: rejected?.[i] ?? null,
          remaining: remaining?.[i] ?? null,
        });
      }
    }
    if (s.cassettes.length) this.snapshots.push(s);
  }

  private finishTxn(txn: Txn, interrupted: Interruption | null): void {
    txn.interrupted = interrupted;
    this.txns.push(txn);
    if (this.open === txn) this.open = null;
  }

  private event(pattern: Compiled, g: Record<string, string | undefined>, no: number, text: string): void {
    const kind = pattern.event;
    const opening = this.stampLine;
    this.stampLine = kind === 'stamp' ? no : null;
    if (this.snapshot && kind !== 'counterRow' && kind !== 'counterCassette' && kind !== 'known') this.closeSnapshot();
    // Every line may carry its date and time.
    const d = pattern.date ? this.dateOf(g) : null;
    if (d) {
      this.noteDate(d);
      this.date = d;
    }
    if (pattern.groups.size === 0 && kind === 'known') {
      if (this.open) this.open.to = no;
      return;
    }
    // A group the pattern does not have is undefined in its groups object.
    if (g.time) this.time = normalTime(g.time);
    if (g.atm && !this.atm) this.atm = g.atm.toUpperCase();

    switch (kind) {
      case 'start': {
        this.seenStart = true;
        if (this.open) {
          this.anomaly(no, 'gap', 'A transaction starts before the previous one ended.');
          this.finishTxn(this.open, { kind: 'gap', line: no });
        }
        const txn = blankTxn(opening ?? no);
        txn.date = this.date;
        txn.time = this.time;
        this.open = txn;
        return;
      }
      case 'restart': {
        if (this.open) {
          this.anomaly(no, 'restart', text);
          this.finishTxn(this.open, { kind: 'restart', line: no });
        }
        return;
      }
      case 'counterStart': {
        this.snapshot = { line: no, date: this.date, time: this.time, rows: null, cassettes: [] };
        if (this.open) this.open.to = no;
        return;
      }
      case 'counterRow': {
        if (this.snapshot && g.field && g.values) (this.snapshot.rows ??= new Map()).set(g.field.toUpperCase(), g.values.trim().split(/\s+/).map(Number));
        else this.unknown++;
        if (this.open) this.open.to = no;
        return;
      }
      case 'counterCassette': {
        if (!g.position && !this.snapshot) {
          // A bare row of numbers outside a table means nothing.
          this.unknownLine(no);
          return;
        }
        if (!this.snapshot) this.snapshot = { line: no, date: this.date, time: this.time, rows: null, cassettes: [] };
        const init = num(g.init);
        const dispensed = num(g.dispensed);
        const rejected = num(g.rejected);
        const remaining = num(g.remaining) ?? (init !== null && dispensed !== null && rejected !== null ? Math.max(0, init - dispensed - rejected) : null);
        const position = g.position ? Number(g.position) : this.snapshot.cassettes.length + 1;
        this.snapshot.cassettes.push({ position, denomination: g.denom ? Math.round(Number(g.denom)) : null, dispensed, rejected, remaining });
        if (this.open) this.open.to = no;
        return;
      }
      default:
        break;
    }

    // A stamp opens what follows; it ends nothing and belongs to no transaction before it.
    if (kind === 'stamp') return;
    const txn = this.current(no, kind);
    if (!txn) return;
    txn.to = no;
    if (!txn.date && d) txn.date = d;
    // Only the groups the pattern has (groups objects differ per pattern: few lookups keep it quick).
    for (const name of pattern.names) {
      const v = g[name];
      if (v) this.field(txn, name, v, no);
    }
    if (kind === 'response' || kind === 'declined' || kind === 'request') {
      for (let i = 0; i < hostLabels.length; i++) {
        const [name, re] = hostLabels[i]!;
        if (g[name]) continue;
        const m = re.exec(text);
        if (m) this.field(txn, name, m[1]!, no);
      }
    }

    switch (kind) {
      case 'end':
        this.finishTxn(txn, null);
        return;
      case 'amount':
        txn.entered = paise(g.amount) ?? txn.entered;
        return;
      case 'fields':
        if (g.amount) txn.receipt = paise(g.amount) ?? txn.receipt;
        return;
      case 'request':
        txn.requested = true;
        if (g.minor) txn.requestField = Number(g.minor);
        if (g.amount) txn.entered = paise(g.amount) ?? txn.entered;
        return;
      case 'response':
        txn.responseLine = no;
        return;
      case 'declined':
        txn.declinedLine ??= no;
        return;
      case 'stacked':
        txn.stacked = counts(g);
        txn.stackedLine = no;
        return;
      case 'presented': {
        const notes = counts(g);
        if (notes) txn.presented = add(txn.presented, notes);
        else if (txn.stacked) {
          txn.presented = add(txn.presented, txn.stacked);
          // The notes presented are the ones that line counted: it is the count's evidence.
          if (txn.stackedLine !== null) txn.presentedLines.push(txn.stackedLine);
        } else txn.awaitingCounts = true;
        txn.presentedLines.push(no);
        return;
      }
      case 'counts': {
        const notes = counts(g);
        if (txn.awaitingCounts && notes) {
          txn.presented = add(txn.presented, notes);
          txn.presentedLines.push(no);
          txn.awaitingCounts = false;
        }
        return;
      }
      case 'taken':
        txn.taken = no;
        return;
      case 'timeout':
        txn.timeout = no;
        return;
      case 'retracted':
        txn.retracted ??= no;
        this.anomaly(no, 'retract', text);
        return;
      case 'status': {
        // An NDC-style dispenser status (`*7037*1*E*4, M-03, R-00310`): 2, 3 and 4 say the dispense
        // failed (3: with an unknown count), 5 that the notes were retracted after the present timeout.
        const status = g.status;
        if (g.device && !/^[E]$/i.test(g.device)) return;
        if (status === '5') {
          txn.retracted ??= no;
          this.anomaly(no, 'retract', text);
        } else if (status === '2' || status === '3' || status === '4') {
          txn.failure ??= no;
          txn.failures.push(no);
          this.anomaly(no, 'dispense_failure', text);
        }
        return;
      }
      case 'failure':
        txn.failure ??= no;
        txn.failures.push(no);
        this.anomaly(no, 'dispense_failure', g.device ? `${trimText(text)} (device code ${g.device.trim()})` : text);
        return;
      case 'reversal':
        txn.reversal ??= no;
        txn.reversals.push(no);
        return;
      default:
        return;
    }
  }

  private field(txn: Txn, name: string, v: string, no: number): void {
    switch (name) {
      case 'time':
        if (!txn.time) txn.time = normalTime(v);
        return;
      case 'atm':
        txn.atm = v.toUpperCase();
        return;
      case 'card':
        txn.card = lastFour(v) ?? txn.card;
        return;
      case 'rrn':
        txn.rrn = v;
        return;
      case 'stan':
        txn.stan = v;
        return;
      case 'serial':
        txn.serial = v;
        return;
      case 'code':
        txn.code = v.toUpperCase();
        txn.codeLine = no;
        return;
      default:
        return;
    }
  }

  /** The journal as read: verdicts given now that the whole file is known. */
  finish(): ParsedJournal {
    this.closeSnapshot();
    if (this.open) {
      this.anomaly(this.lineCount, 'cut', 'The journal ends inside a transaction.');
      this.finishTxn(this.open, { kind: 'end', line: this.lineCount });
    }
    const order = this.dateOrder();
    const named = this.fileName ? fromFileName(this.fileName) : { atmId: null, day: null };
    const atmId = this.atm ?? named.atmId;
    const day = this.firstDate ? isoDay(this.firstDate, order) : named.day;
    const counters: CounterSnapshot[] = this.snapshots.map((s) => ({ line: s.line, at: stamp(s.date, s.time, order, day), cassettes: s.cassettes }));
    this.priced = this.snapshots.filter((s) => s.cassettes.some((c) => c.denomination));
    const transactions = this.txns.map((t, i) => this.judge(t, i + 1, order, atmId, day));
    this.anomalies.sort((x, y) => x.line - y.line);
    return {
      family: this.family.name,
      atmId,
      day,
      lineCount: this.lineCount,
      unknownLines: this.unknown,
      transactions,
      counters,
      anomalies: this.anomalies,
    };
  }

  /** How this file's open dates read: the file's own evidence first, then its file name, then the family's habit. */
  private dateOrder(): 'mdy' | 'dmy' {
    let mdy = 0;
    let dmy = 0;
    for (const { date: d, lines } of this.openDates.values()) {
      if (this.settled.has(dateKey(d.year, d.a, d.b))) mdy += lines;
      if (this.settled.has(dateKey(d.year, d.b, d.a))) dmy += lines;
    }
    if (mdy !== dmy) return mdy > dmy ? 'mdy' : 'dmy';
    const named = this.fileName ? fromFileName(this.fileName).day : null;
    const first = this.openDates.values().next().value?.date;
    if (named && first) {
      if (isoDay(first, 'mdy') === named) return 'mdy';
      if (isoDay(first, 'dmy') === named) return 'dmy';
    }
    return this.family.ambiguousDates;
  }

  /** The tables that state denominations, in line order (set by finish). */
  private priced: Snapshot[] = [];

  /** The denominations that apply to a presentation at `line`: the nearest table after it, else before. */
  private denominations(line: number): (number | null)[] | null {
    const priced = this.priced;
    let lo = 0;
    let hi = priced.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (priced[mid]!.line < line) lo = mid + 1;
      else hi = mid;
    }
    const s = priced[lo] ?? priced[lo - 1];
    return s ? byPosition(s.cassettes) : null;
  }

  private judge(t: Txn, seq: number, order: 'mdy' | 'dmy', atmId: string | null, day: string | null): JournalTransaction {
    let presentedNotes = 0;
    if (t.presented) for (const n of t.presented) presentedNotes += n;
    let presentedAmount: number | null = null;
    let missingDenomination = false;
    if (t.presented && presentedNotes > 0) {
      const denoms = this.denominations(t.presentedLines[0] ?? t.from);
      presentedAmount = 0;
      for (let i = 0; i < t.presented.length; i++) {
        const n = t.presented[i]!;
        if (n === 0) continue;
        const denom = denoms?.[i];
        if (!denom) missingDenomination = true;
        else presentedAmount += n * denom * 100;
      }
      if (missingDenomination) presentedAmount = null;
    }
    const requested = requestedAmount(t, presentedAmount);
    const approvedCode = t.code === null ? null : this.family.approvedCodes.includes(t.code);
    const declined = (approvedCode === false || t.declinedLine !== null) && presentedNotes === 0;
    const withdrawal = requested !== null || presentedNotes > 0 || t.stacked !== null;

    const base: Base = {
      seq,
      atmId: t.atm ?? atmId,
      at: stamp(t.date, t.time, order, day),
      cardLast4: t.card,
      rrn: t.rrn,
      stan: t.stan,
      serial: t.serial,
      responseCode: t.code,
      requestedAmount: requested === null ? null : rupees(requested),
      presented: t.presented,
      lines: { from: t.from, to: t.to },
      cut: t.interrupted?.kind === 'end' ? ('end' as const) : t.cutStart ? ('start' as const) : null,
    };

    if (!withdrawal) return finalize(base, 'other', null, 'Not a withdrawal.', [], null);
    if (t.interrupted || t.cutStart) {
      const why =
        t.interrupted?.kind === 'restart'
          ? 'The ATM restarted before the transaction ended.'
          : t.interrupted?.kind === 'gap'
            ? 'A new transaction started before this one ended.'
            : t.interrupted?.kind === 'end'
              ? 'The journal ends before the transaction does.'
              : 'The journal begins after the transaction started.';
      return finalize(base, 'withdrawal', 'indeterminate', why, [t.to, t.interrupted?.line ?? t.from, ...t.presentedLines, t.taken, t.retracted], null);
    }
    if (t.taken !== null && t.retracted !== null) {
      this.anomaly(t.retracted, 'contradiction', 'The journal says the notes were both taken and retracted.');
      return finalize(
        base,
        'withdrawal',
        'indeterminate',
        'The journal says the notes were both taken and retracted.',
        [...t.presentedLines, t.taken, t.retracted],
        null,
      );
    }
    if (declined)
      return finalize(
        base,
        'declined',
        null,
        `Declined by the host${t.code ? ` (response code ${t.code})` : ''}.`,
        [t.codeLine, t.declinedLine, t.responseLine],
        0,
      );

    if (presentedNotes > 0) {
      const notes = describeNotes(t.presented!, this.denominations(t.presentedLines[0] ?? t.from));
      if (presentedAmount === null) {
        return finalize(
          base,
          'withdrawal',
          'indeterminate',
          `Notes presented (${notes}), but the journal does not state every cassette's denomination.`,
          [...t.presentedLines, t.taken, t.retracted],
          null,
        );
      }
      if (t.taken !== null) {
        if (requested !== null && presentedAmount > requested) {
          this.anomaly(t.presentedLines[0]!, 'contradiction', 'More notes presented than the amount requested.');
          return finalize(base, 'withdrawal', 'indeterminate', `Notes presented (${notes}) exceed the amount requested.`, [...t.presentedLines, t.taken], null);
        }
        if (requested !== null && presentedAmount < requested) {
          return finalize(
            base,
            'withdrawal',
            'partial',
            `Notes presented (${notes} = ${rupees(presentedAmount)}) are less than requested (${rupees(requested)}), and taken.`,
            [...t.failures, ...t.presentedLines, t.taken],
            presentedAmount,
          );
        }
        return finalize(
          base,
          'withdrawal',
          'dispensed',
          `Notes presented in full (${notes} = ${rupees(presentedAmount)}) and taken.`,
          [...t.presentedLines, t.taken],
          presentedAmount,
        );
      }
      if (t.retracted !== null) {
        return finalize(
          base,
          'withdrawal',
          'retracted',
          `Notes presented (${notes}), not taken${t.timeout !== null ? ' in time' : ''}, and retracted.`,
          [...t.presentedLines, t.timeout, t.retracted],
          0,
        );
      }
      return finalize(
        base,
        'withdrawal',
        'indeterminate',
        `Notes presented (${notes}); the journal does not say whether they were taken or retracted.`,
        [...t.presentedLines, t.timeout],
        null,
      );
    }

    if (t.taken !== null || t.retracted !== null) {
      this.anomaly(t.taken ?? t.retracted!, 'contradiction', 'Notes taken or retracted, but none presented.');
      return finalize(
        base,
        'withdrawal',
        'indeterminate',
        'The journal says notes were taken or retracted, but none were presented.',
        [t.taken, t.retracted],
        null,
      );
    }
    if (t.reversal !== null) {
      return finalize(
        base,
        'withdrawal',
        'reversed',
        'No notes presented; the journal shows the reversal sent to the host.',
        [t.codeLine, t.responseLine, ...t.failures, ...t.reversals],
        0,
      );
    }
    if (approvedCode === true || t.responseLine !== null) {
      const why =
        t.failure !== null
          ? 'Approved, the dispense failed, nothing presented, and no reversal in the journal.'
          : 'Approved, nothing presented, and no reversal in the journal.';
      return finalize(base, 'withdrawal', 'not_dispensed', why, [t.codeLine, t.responseLine, ...t.failures], 0);
    }
    if (!t.requested) return finalize(base, 'other', null, 'Cancelled before the host was asked.', [], null);
    return finalize(base, 'withdrawal', 'indeterminate', "The host's answer is not in the journal.", [...t.failures], null);
  }
}

// The host's fields where a family's pattern leaves them to the line (`HOST RESPONSE : 00 SEQ NO : 0187
// RRN : 503506001870`, `STAN 004512 RRN 503506004512`): each read when its label is on the line.
const hostLabels: ['rrn' | 'stan' | 'serial' | 'code', RegExp][] = [
  ['rrn', /\bRRN\b\.?\s*(?:NO\.?)?\s*[:=]?\s*(\d{6,12})\b/i],
  ['stan', /\bSTAN\b\.?\s*(?:NO\.?)?\s*[:=]?\s*(\d{4,6})\b/i],
  ['serial', /\b(?:SEQ(?:UENCE)?\s*(?:NO|NUM(?:BER)?)?|TXN\s*(?:SN\s*)?NO)\.?\s*[:=]?\s*(\d+)\b/i],
  ['code', /\b(?:RESP(?:ONSE)?(?:\s*CODE)?|RC)\s*[:=]\s*([0-9A-Z]{2,3})\b/i],
];

type Base = Omit<JournalTransaction, 'kind' | 'verdict' | 'reason' | 'dispensedAmount' | 'evidence'>;

function finalize(
  base: Base,
  kind: JournalTransaction['kind'],
  verdict: Verdict | null,
  reason: string,
  evidence: (number | null)[],
  dispensed: number | null,
): JournalTransaction {
  const lines: number[] = [];
  for (const n of evidence) if (n !== null && !lines.includes(n)) lines.push(n);
  // A handful of lines: sorted in place (Array.prototype.sort allocates its own work space per call).
  for (let i = 1; i < lines.length; i++) {
    const n = lines[i]!;
    let j = i - 1;
    while (j >= 0 && lines[j]! > n) {
      lines[j + 1] = lines[j]!;
      j--;
    }
    lines[j + 1] = n;
  }
  return {
    seq: base.seq,
    kind,
    atmId: base.atmId,
    at: base.at,
    cardLast4: base.cardLast4,
    rrn: base.rrn,
    stan: base.stan,
    serial: base.serial,
    responseCode: base.responseCode,
    requestedAmount: base.requestedAmount,
    presented: base.presented,
    dispensedAmount: dispensed === null ? null : rupees(dispensed),
    verdict,
    reason,
    lines: base.lines,
    evidence: lines,
    cut: base.cut,
  };
}

function add(a: number[] | null, b: number[]): number[] {
  if (!a) return [...b];
  const out = [...a];
  for (let i = 0; i < b.length; i++) out[i] = (out[i] ?? 0) + b[i]!;
  return out;
}

function byPosition(cassettes: CassetteCount[]): (number | null)[] {
  const out: (number | null)[] = [];
  for (const c of cassettes) if (c.position >= 1 && c.position <= 16) out[c.position - 1] = c.denomination;
  return out;
}

function describeNotes(presented: number[], denoms: (number | null)[] | null): string {
  const parts: string[] = [];
  for (let i = 0; i < presented.length; i++) if (presented[i]) parts.push(`${presented[i]} × ${denoms?.[i] ?? '?'}`);
  return parts.join(' + ');
}

/**
 * The amount asked for, in paise: entered, else the receipt's, else the request's field read in
 * rupees or paise, whichever agrees with the notes presented (else: paise when rupees would exceed
 * any ATM's limit).
 */
function requestedAmount(t: Txn, presented: number | null): number | null {
  const field = t.requestField;
  const asRupees = field === null ? null : field * 100;
  const known = t.entered ?? t.receipt;
  if (known !== null) return known;
  if (field === null || field === 0) return null;
  if (presented !== null) {
    if (asRupees === presented) return asRupees;
    if (field === presented) return field;
  }
  return field > 100000 ? field : asRupees;
}

function stamp(date: DateParts | null, time: string | null, order: 'mdy' | 'dmy', day: string | null): string | null {
  const d = date ? isoDay(date, order) : day;
  if (!d || !time) return null;
  return `${d}T${time}`;
}
