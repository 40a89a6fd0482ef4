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
  { event: 'known', re: at(String.raw`(?:PIN ENTERED|CARD\b.*\bTAKEN|CARD INSERTED|TRANSACTION REQUEST\b|CASH DISPENSED\b)`) },
  { event: 'fields', re: at(String.raw`(?:TRACK \d DATA|CARD(?:\s*(?:NO|NUMBER))?)\s*[:(]\s*${card}`) },
  { event: 'fields', re: at(String.raw`CARD\s*\(${card}\)`), hint: 'CARD' },
  { event: 'amount', re: at(String.raw`AMOUNT\s+(?<amount>\d[\d,]*(?:\.\d\d)?)\s+ENTERED`), hint: 'AMOUNT' },
  { event: 'stacked', re: at(String.raw`CASH REQUEST\s*:\s*(?<pairs>\d{2,16})\s*$`), hint: 'CASH REQUEST' },
  { event: 'request', re: at(String.raw`(?:AUTHORI[SZ]ATION|HOST)\s+REQUEST`) },
  { event: 'response', re: at(String.raw`(?:AUTHORI[SZ]ATION|HOST)\s+(?:RESPONSE|REPLY)|TRANSACTION REPLY`) },
  { event: 'presented', re: at(String.raw`CASH PRESENTED(?:\s*:?\s*(?<notes>\d+(?::\d+)?(?:[\s,]+\d+(?::\d+)?)*))?\s*$`), hint: 'CASH PRESENTED' },
  { event: 'taken', re: at('CASH TAKEN'), hint: 'CASH TAKEN' },
  { event: 'retracted', re: at(String.raw`CASH RETRACTED|MONEY RETRACT COUNTER CHANGED`) },
  { event: 'timeout', re: at(String.raw`CASH PRESENT TIMER EXPIRED|PRESENT\s+TIME\s?OUT`) },
  {
    event: 'failure',
    re: at(String.raw`(?:CDM|DISPENSER|CASH DISPENSER|DISPENSE)\s*(?:ERROR|FAIL\w*|FAULT)\s*:?\s*(?<device>[0-9A-F]+(?:\s+[0-9A-F]+)*)?\s*$`),
  },
  { event: 'failure', re: anywhere(String.raw`ERROR NOTIFIED FOR DEVICE\s+(?<device>CDM\w*|CASH_DISPENSER\w*)`) },
  { event: 'reversal', re: at(String.raw`(?:REVERSAL|REVERSED)\b`), hint: 'REVERS' },
  { event: 'restart', re: anywhere(String.raw`APPLICATION START|SYSTEM START|POWER[- ](?:UP|ON)|START-?UP\b`) },
  { event: 'counterStart', re: at(String.raw`(?:CASH COUNTERS|CASSETTE COUNTERS|CASSETTE TOTALS)\b`) },
  { event: 'known', re: anywhere(String.raw`^\s*(?:CASS(?:ETTE)?|TYPE)\s+DENOM`) },
  {
    event: 'counterCassette',
    re: anywhere(
      String.raw`^\s*(?:CASS(?:ETTE)?|TYPE|CST)\s*(?<position>\d)\s*:?\s+(?:[A-Z]{3}\s*)?(?<denom>\d+)\s+(?<dispensed>\d+)\s+(?<rejected>\d+)\s+(?<remaining>\d+)\s*$`,
    ),
  },
  // Receipts and host lines.
  {
    event: 'fields',
    re: anywhere(String.raw`^\s*(?<day>\d\d)\/(?<month>\d\d)\/(?<year>\d\d(?:\d\d)?)\s+(?<time>\d\d:\d\d(?::\d\d)?)\s+(?<atm>[A-Z0-9]{5,16})\s*$`),
  },
  { event: 'fields', re: anywhere(String.raw`(?:ATM|TERMINAL)\s*(?:ID)?\s*[:.]\s*(?<atm>[A-Z0-9]{5,16})\s*$`) },
  { event: 'fields', re: anywhere(String.raw`^\s*(?:TXN|TRAN(?:SACTION)?)\s*(?:NO|SEQ)\.?\s*[:.]?\s*(?<serial>\d+)\s*$`) },
  { event: 'fields', re: anywhere(String.raw`^\s*(?:RRN|REF(?:ERENCE)?\s*NO)\.?\s*[:.]?\s*(?<rrn>\d{6,12})\s*$`) },
  { event: 'fields', re: anywhere(String.raw`^\s*STAN\s*[:.]?\s*(?<stan>\d{4,6})\s*$`), hint: 'STAN' },
  { event: 'fields', re: anywhere(String.raw`^\s*RESP(?:ONSE)?\s*CODE\s*[:.]?\s*(?<code>[0-9A-Z]{2,3})\s*$`), hint: 'RESP' },
  { event: 'fields', re: anywhere(String.raw`^\s*WITHDRAWAL\s*(?:RS\.?|INR|₹)?\s*(?<amount>\d[\d,]*\.\d\d)\s*$`), hint: 'WITHDRAWAL' },
  { event: 'declined', re: anywhere(String.raw`(?:INSUFFICIENT FUNDS|TRANSACTION DECLINED|DECLINED BY HOST|CANCELED BY HOST|CANCELLED BY HOST)`) },
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
};
