// Diebold Nixdorf ProCash / Vynamic journals (Wincor Nixdorf ProCash heritage).
//
// What these patterns rest on (public descriptions and samples of such journals):
// - The desk's own description of the lines (EJ Desk issue "Journal evidence"): dated lines,
//   `CASH PRESENTED` (per cassette), `CASH TAKEN`, `CASH RETRACTED`, a present timeout, STAN and RRN
//   on the authorisation line, dispense errors with a device code, start-up lines, cassette tables.
// - A ProCash journal reader's regular expressions (github.com/Mossaaba/ProCompta,
//   src/main/resources/regeX/regeX.properties): `hh:mm:ss -> TRANSACTION START`,
//   `hh:mm:ss <- TRANSACTION END`, `TRACK 2 DATA:`, `PIN ENTERED`, `AMOUNT 500 ENTERED`,
//   `CASH REQUEST: 0204`, `CASH PRESENTED`, `CASH TAKEN`, `*12*hh:mm:ss CASH RETRACTED`,
//   `*12*hh:mm:ss CASH PRESENT TIMER EXPIRED`, `*..*hh:mm:ss <DEVICE> ERROR: <code>`, `CASH COUNTERS
//   BEFORE/AFTER SOP` tables; and that project's JournalDaoImpl.java reading them per cassette.
// - A ProCash EJ tool (public GitHub, ProcessProcashATMEJ.cs; code index id 34325685): the same
//   TRANSACTION START/END markers, `CASH REQUEST:` read as two digits of notes per cassette
//   (`0204` = 2 from cassette 1, 4 from cassette 2), `CASH TAKEN`, `CASH RETRACTED`, `RRN:[`,
//   `RESPONSE CODE`.
// - A Vynamic journal reader (code index id 53115383023): `Present timeout`, `Money Retract Counter
//   Changed`, `Error notified for device ...`, `STAN:`, `RESPONSE CODE:` on the host lines (mixed case,
//   so every pattern here ignores case).
// - Read in the style of the desk's description, as the desk's journal generator prints them
//   (tools/journal-gen/README.md; no public sample): `AUTHORIZATION STAN:382237 RRN:503500382237
//   RESP:00 APPROVED`, `AMOUNT: INR 3000.00`, `CASH PRESENTED CAS1:000 CAS2:004 ...`, `DEVICE ERROR
//   CASH_DISPENSER ERRORNR: 0x2202 CLASS: FATAL`, `DISPENSE FAILED`, `REVERSAL SENT`, `RETRACT COUNTER`,
//   `*** SYSTEM STARTUP ***` / `APPLICATION RESTART`, the `CASSETTE TABLE` with its `CAS DENOM CUR LOADED
//   DISP REJ REMAIN` rows, and `*** dd/mm/yyyy ***` opening a journal of time-only lines.
// Dates: a line may begin with its date, day first (dd/mm/yy, dd.mm.yyyy); when a file leaves the order
// open, day first. Notes per cassette: `CASH PRESENTED 0,4,0,0`, `CASH PRESENTED 1:0 2:4`, or the
// `CASH REQUEST` pairs of the same transaction when the presented line has no counts.
import type { Family, LinePattern } from './family.ts';

// `*123*` (the journal's own counter on error lines), then an optional date and time.
const lead = String.raw`^\s*(?:\*\d+\*)?\s*(?:(?<p1>\d\d)[/.-](?<p2>\d\d)[/.-](?<year>\d{2}(?:\d{2})?)\s+)?(?:(?<time>\d\d:\d\d(?::\d\d)?)\s*)?`;
const at = (body: string) => new RegExp(lead + body, 'i');
const anywhere = (body: string) => new RegExp(body, 'i');
const card = String.raw`(?<card>\d[\d*Xx]{8,17}\d{4})`;

const patterns: LinePattern[] = [
  { event: 'start', re: at(String.raw`(?:->\s*)?TRANSACTION START`), hint: 'TRANSACTION START' },
  { event: 'end', re: at(String.raw`(?:<-\s*)?TRANSACTION END`), hint: 'TRANSACTION END' },
  {
    event: 'known',
    re: at(String.raw`(?:PIN ENTERED|CARD\b.*\bTAKEN|CARD INSERTED|TRANSACTION REQUEST\b|CASH DISPENSED\b|ATM IN SERVICE)`),
    hint: ['PIN ENTERED', 'TAKEN', 'CARD INSERTED', 'TRANSACTION REQUEST', 'CASH DISPENSED', 'IN SERVICE'],
  },
  { event: 'fields', re: at(String.raw`(?:TRACK \d DATA|CARD(?:\s*(?:NO|NUMBER))?)\s*[:(]\s*${card}`), hint: ['TRACK', 'CARD'] },
  { event: 'amount', re: at(String.raw`AMOUNT\s+(?<amount>\d[\d,]*(?:\.\d\d)?)\s+ENTERED`), hint: 'AMOUNT' },
  { event: 'amount', re: at(String.raw`AMOUNT\s*:\s*(?:[A-Z]{3}|RS\.?)?\s*(?<amount>\d[\d,]*(?:\.\d\d)?)\s*$`), hint: 'AMOUNT' },
  { event: 'stacked', re: at(String.raw`CASH REQUEST\s*:\s*(?<pairs>\d{2,16})\s*$`), hint: 'CASH REQUEST' },
  { event: 'reversal', re: at(String.raw`(?:REVERSAL|REVERSED)\b`), hint: 'REVERS' },
  { event: 'request', re: at(String.raw`(?:AUTHORI[SZ]ATION|HOST)\s+REQUEST`), hint: ['AUTHORI', 'HOST'] },
  // The authorisation line carries STAN, RRN and the response code (`AUTHORIZATION STAN:382237
  // RRN:503500382237 RESP:00 APPROVED`), or the answer has a line of its own.
  { event: 'response', re: at(String.raw`(?:AUTHORI[SZ]ATION|HOST)\b(?!\s+REQUEST)|TRANSACTION REPLY`), hint: ['AUTHORI', 'HOST', 'TRANSACTION REPLY'] },
  {
    event: 'presented',
    re: at(String.raw`CASH PRESENTED(?:\s*:?\s*(?<notes>(?:CAS\s*)?\d+(?::\d+)?(?:[\s,]+(?:CAS\s*)?\d+(?::\d+)?)*))?\s*$`),
    hint: 'CASH PRESENTED',
  },
  { event: 'taken', re: at('CASH TAKEN'), hint: 'CASH TAKEN' },
  { event: 'retracted', re: at(String.raw`CASH RETRACTED|(?:MONEY )?RETRACT COUNTER`), hint: 'RETRACT' },
  { event: 'timeout', re: at(String.raw`CASH PRESENT TIMER EXPIRED|PRESENT\s+TIME\s?OUT`), hint: 'PRESENT' },
  {
    event: 'failure',
    re: at(String.raw`(?:CDM|DISPENSER|CASH DISPENSER|DISPENSE)\s*(?:ERROR|FAIL\w*|FAULT)\b\s*:?\s*(?<device>[0-9A-F]+(?:\s+[0-9A-F]+)*\b)?`),
    hint: ['CDM', 'DISPENSE'],
  },
  {
    event: 'failure',
    re: anywhere(String.raw`(?:ERROR NOTIFIED FOR DEVICE|DEVICE ERROR)\s+(?:CDM|CASH_DISPENSER)\w*(?:.*?ERRORNR:\s*(?<device>\w+))?`),
    hint: 'DEVICE',
  },
  { event: 'restart', re: anywhere(String.raw`(?:APPLICATION|SYSTEM)\s+(?:RE)?START|POWER[- ](?:UP|ON)|START-?UP\b`), hint: ['START', 'POWER'] },
  {
    event: 'counterStart',
    re: at(String.raw`(?:CASH COUNTERS|CASSETTE COUNTERS|CASSETTE TOTALS|CASSETTE TABLE)\b`),
    hint: ['CASH COUNTERS', 'CASSETTE'],
  },
  { event: 'known', re: anywhere(String.raw`^\s*(?:CAS(?:S(?:ETTE)?)?|TYPE)\s+DENOM`), hint: 'DENOM' },
  {
    event: 'counterCassette',
    re: anywhere(
      String.raw`^\s*(?:CASS(?:ETTE)?|TYPE|CST)\s*(?<position>\d)\s*:?\s+(?:[A-Z]{3}\s*)?(?<denom>\d+)\s+(?<dispensed>\d+)\s+(?<rejected>\d+)\s+(?<remaining>\d+)\s*$`,
    ),
  },
  // `CAS DENOM CUR LOADED DISP REJ REMAIN` rows: ` 1    100.00  INR    2500     0    0    2500`.
  {
    event: 'counterCassette',
    re: /^\s*(?<position>\d)\s+(?<denom>\d+)(?:\.\d\d)?\s+[A-Z]{3}\s+(?<init>\d+)\s+(?<dispensed>\d+)\s+(?<rejected>\d+)\s+(?<remaining>\d+)\s*$/,
  },
  // `*** 04/02/2025 ***` opens a journal whose lines print the time only.
  { event: 'stamp', re: /^\s*\*+\s*(?<p1>\d\d)[/.](?<p2>\d\d)[/.](?<year>\d{4})\s*\*+\s*$/, hint: '*' },
  // Receipts and host lines.
  {
    event: 'fields',
    re: anywhere(String.raw`^\s*(?<day>\d\d)\/(?<month>\d\d)\/(?<year>\d\d(?:\d\d)?)\s+(?<time>\d\d:\d\d(?::\d\d)?)\s+(?<atm>[A-Z0-9]{5,16})\s*$`),
    hint: '/',
  },
  { event: 'fields', re: anywhere(String.raw`(?:ATM|TERMINAL)\s*(?:ID)?\s*[:.]\s*(?<atm>[A-Z0-9]{5,16})\s*$`), hint: ['ATM', 'TERMINAL'] },
  { event: 'fields', re: anywhere(String.raw`^\s*(?:TXN|TRAN(?:SACTION)?)\s*(?:NO|SEQ)\.?\s*[:.]?\s*(?<serial>\d+)\s*$`), hint: ['TXN', 'TRAN'] },
  { event: 'fields', re: anywhere(String.raw`^\s*(?:RRN|REF(?:ERENCE)?\s*NO)\.?\s*[:.]?\s*(?<rrn>\d{6,12})\s*$`), hint: ['RRN', 'REF'] },
  { event: 'fields', re: anywhere(String.raw`^\s*STAN\s*[:.]?\s*(?<stan>\d{4,6})\s*$`), hint: 'STAN' },
  { event: 'fields', re: anywhere(String.raw`^\s*RESP(?:ONSE)?\s*CODE\s*[:.]?\s*(?<code>[0-9A-Z]{2,3})\s*$`), hint: 'RESP' },
  { event: 'fields', re: anywhere(String.raw`^\s*WITHDRAWAL\s*(?:RS\.?|INR|₹)?\s*(?<amount>\d[\d,]*\.\d\d)\s*$`), hint: 'WITHDRAWAL' },
  {
    event: 'declined',
    re: anywhere(String.raw`(?:INSUFFICIENT FUNDS|TRANSACTION DECLINED|DECLINED BY HOST|CANCELED BY HOST|CANCELLED BY HOST)`),
    hint: ['INSUFFICIENT', 'DECLINED', 'BY HOST'],
  },
];

export const diebold: Family = {
  name: 'diebold',
  detect: [
    /->\s*TRANSACTION START/i,
    /<-\s*TRANSACTION END/i,
    /CASH PRESENTED/i,
    /CASH TAKEN/i,
    /CASH RETRACTED/i,
    /CASH REQUEST\s*:/i,
    /TRACK 2 DATA/i,
    /CASH PRESENT TIMER EXPIRED|PRESENT\s+TIME\s?OUT/i,
  ],
  patterns,
  approvedCodes: ['00', '000'],
  ambiguousDates: 'dmy',
  mixedCase: true,
};
