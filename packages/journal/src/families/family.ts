// What a family of journals is, as data: the lines that identify it and the line patterns the
// engine reads. A bank's variant is one more Family (often the base's patterns plus a few of its own).

/**
 * The fixed vocabulary a line can mean. The engine gives each its meaning (src/engine.ts):
 * - start / end: a transaction begins / ends.
 * - stamp: a date and/or time for the lines that follow (NCR's sequence header).
 * - fields: receipt or header fields (card, atm, rrn, stan, serial, code, amount, date, time).
 * - amount: the amount the customer asked for (entered or chosen).
 * - request: the request sent to the host (may carry the amount).
 * - response: the host's answer (code, serial, rrn, stan; no code = an answer that authorised).
 * - declined: a line that says the host refused.
 * - stacked: notes counted into the stacker per cassette, not yet presented.
 * - presented: notes presented to the customer (per cassette; none given = the stacked ones, or a
 *   'counts' line that follows).
 * - counts: the per-cassette counts of a presentation printed on its own line.
 * - taken / timeout / retracted: the customer took the notes / did not in time / they went back in.
 * - failure: the dispense failed (device code in `device`).
 * - status: a dispenser status digit in `status` (NDC: 2, 3, 4 the dispense failed, 5 the notes were
 *   retracted after the present timeout; other digits change nothing); `device` names the device
 *   class when the line carries one (only E, the cash handler, counts).
 * - reversal: a reversal was sent to the host.
 * - restart: power-up, reset, application start.
 * - counterStart: a cassette table begins.
 * - counterRow: one row of a table laid out by field (`field` names the row, `values` per cassette).
 * - counterCassette: one row of a table laid out by cassette (position, denom, dispensed, ...).
 * - known: a line the family knows that changes nothing (PIN ENTERED, CARD TAKEN, ...).
 */
export const eventKinds = [
  'start',
  'end',
  'stamp',
  'fields',
  'amount',
  'request',
  'response',
  'declined',
  'stacked',
  'presented',
  'counts',
  'taken',
  'timeout',
  'retracted',
  'failure',
  'status',
  'reversal',
  'restart',
  'counterStart',
  'counterRow',
  'counterCassette',
  'known',
] as const;
export type EventKind = (typeof eventKinds)[number];

/**
 * One line pattern. Named groups the engine reads (any may be absent):
 *   date parts: day, month, year (2 or 4 digits), mon (JAN..DEC), or p1/p2 for a date whose
 *               order the journal leaves open (resolved over the whole file: see `ambiguousDates`);
 *   time (HH:MM or HH:MM:SS); atm; card (only its last four digits are kept);
 *   amount (rupees, '2000' or '2,000.00'); minor (an amount field that may be paise: see engine);
 *   rrn, stan, serial, code (host response code), device (a failure's device code);
 *   notes ('0,4,0,0' or '0 4 0 0'), pairs ('0004' two digits per cassette), cst1..cst8;
 *   field (a table row's name: DENOMINATION, DISPENSED, REJECTED, REMAINING, INIT), values;
 *   position, denom, init, dispensed, rejected, remaining (one cassette's row; without a position, the
 *   row's order in the table opened by a counterStart line).
 */
/**
 * Write digits as \d, never literally: the engine remembers which pattern read a line's shape (its
 * text with every digit as 0) and reads the next line of that shape with that pattern alone.
 */
export interface LinePattern {
  event: EventKind;
  re: RegExp;
  /**
   * A literal every matching line contains (or several: one of them), as printed (in upper case for a
   * family with `mixedCase`): checked before the regular expression, which most lines then skip.
   */
  hint?: string | readonly string[];
}

export interface Family {
  /** The name stored with each journal ('ncr', or a bank's variant such as 'ncr-examplebank'). */
  name: string;
  /**
   * Lines that identify the family: the one whose patterns match most of the first lines wins. Each
   * is first searched in the lines joined by newlines, so none may look past a line's ends.
   */
  detect: RegExp[];
  /** In order: the first pattern that matches a line decides what it means. */
  patterns: LinePattern[];
  /** The journal prints words in either case: hints are compared with the line in upper case. */
  mixedCase?: boolean;
  /** Host response codes that mean approved. */
  approvedCodes: string[];
  /**
   * How to read p1/p2 dates when the file itself does not settle it (a day above 12, or a receipt's
   * unambiguous date of the same day): 'mdy' or 'dmy'.
   */
  ambiguousDates: 'mdy' | 'dmy';
}
