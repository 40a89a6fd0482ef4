// Hyosung MoniPlus journals.
//
// What these patterns rest on (public descriptions of such journals):
// - The desk's own description of the lines (EJ Desk issue "Journal evidence"): bracketed time
//   stamps, `DISPENSE CST1:00 CST2:05 ...`, notes presented, taken and retracted, the host response
//   with its sequence number and RRN, start-up lines, and the `WITHDRAW COUNTER` table with the
//   columns `DENOM INIT DIS REJ A_RET`.
// - Hyosung's operator manual for the MoniMax 2800SE (manualslib.com/manual/3390445, page 26,
//   "Settlement"): the supervisor's ADD CASH, DAY TOTAL and CASSETTE TOTAL functions that print the
//   per-cassette note counts this table carries.
// - HyosungTools' public log-analysis notes (github.com/HyosungTools/docs, design/CDM.md, CIM.md): the
//   dispenser's XFS events (items presented, items taken, retract) that MoniPlus journals as
//   presented / taken / retracted lines.
// - MoniPlus2S application logs (github.com/HyosungTools/splogparser, as cited by the desk's journal
//   generator): bracketed stamps such as `[2023-11-16 03:01:00-649]` (a millisecond suffix).
// - Read in the style of the desk's description, as the generator prints them (no public Hyosung EJ
//   text was found): `***** TRANSACTION START *****`, `[DATE: yyyy/mm/dd]`, `CARD NO:`, `REQ AMOUNT:`,
//   `HOST REQUEST SENT SEQ NO:`, `HOST RESPONSE CODE: 00  SEQ NO: ...  RRN: ...  STAN: ...`,
//   `CDU ERROR CODE: 4311501`, `DISPENSE FAILED`, `PRESENT TIMEOUT`, `REVERSAL REQUEST SENT`,
//   `ATM POWER ON`, `MONIPLUS STARTED`, WITHDRAW COUNTER rows without the cassette's number.
// Time stamps are `[hh:mm:ss]` or `[yyyy/mm/dd hh:mm:ss]` (year first, also two-digit `yy/mm/dd`).
// The notes of a DISPENSE line are the ones a later "presented" line presents. In the table, the
// remaining notes are INIT - DIS - REJ (the table prints no remaining column).
import type { Family, LinePattern } from './family.ts';

// The stamp, then decorations some terminals print around events (`***** TRANSACTION START *****`).
const lead = String.raw`^\s*(?:\[(?:(?<year>\d{2}(?:\d{2})?)[/.-](?<month>\d\d)[/.-](?<day>\d\d)\s+)?(?<time>\d\d:\d\d(?::\d\d)?)(?:-\d+)?\]\s*)?[*=\s-]*`;
const at = (body: string) => new RegExp(lead + body, 'i');
const anywhere = (body: string) => new RegExp(body, 'i');
const card = String.raw`(?<card>\d[\d*Xx]{8,17}\d{4})`;
const cst = String.raw`CST\s*\d\s*[:=]\s*\d+`;

const patterns: LinePattern[] = [
  { event: 'stamp', re: /^\s*\[DATE:\s*(?<year>\d{4})[/.-](?<month>\d\d)[/.-](?<day>\d\d)\]/, hint: 'DATE' },
  { event: 'start', re: at(String.raw`(?:TRANSACTION|TRAN|TXN)\s+(?:START|BEGIN)`), hint: ['START', 'BEGIN'] },
  { event: 'end', re: at(String.raw`(?:TRANSACTION|TRAN|TXN)\s+END`), hint: 'END' },
  {
    event: 'known',
    re: at(String.raw`(?:CARD INSERTED|CARD READ|PIN ENTERED|CARD (?:EJECTED|TAKEN)|RECEIPT PRINTED|IN SERVICE|WITHDRAWAL\s*$)`),
    hint: ['CARD', 'PIN ENTERED', 'RECEIPT', 'IN SERVICE', 'WITHDRAWAL'],
  },
  { event: 'fields', re: at(String.raw`CARD\s*(?:NO|NUMBER)?\.?\s*[:=]\s*${card}`), hint: 'CARD' },
  {
    event: 'amount',
    re: at(String.raw`(?:WITHDRAWAL\s+|REQUEST(?:ED)?\s+|REQ\.?\s+)?AMOUNT\s*[:=]\s*(?:RS\.?|INR)?\s*(?<amount>\d[\d,]*(?:\.\d\d)?)\s*$`),
    hint: 'AMOUNT',
  },
  { event: 'reversal', re: at(String.raw`(?:REVERSAL|REVERSED)\b`), hint: 'REVERS' },
  { event: 'request', re: at(String.raw`(?:(?:SEND|SENT)\s+(?:TO\s+)?HOST|HOST\s+REQUEST|REQUEST\s+(?:TO\s+)?HOST)`), hint: 'HOST' },
  { event: 'response', re: at(String.raw`(?:HOST\s+RESPONSE|RE(?:CV|CEIVE[DS]?)\s+(?:FROM\s+)?HOST)`), hint: 'HOST' },
  { event: 'stacked', re: at(String.raw`DISPENSE\s*:?\s*(?<notes>${cst}(?:[\s,]+${cst})*)`), hint: 'DISPENSE' },
  { event: 'presented', re: at(String.raw`(?:NOTES?|CASH|BILLS?)\s+PRESENTED`), hint: 'PRESENTED' },
  { event: 'taken', re: at(String.raw`(?:NOTES?|CASH|BILLS?)\s+TAKEN`), hint: 'TAKEN' },
  { event: 'retracted', re: at(String.raw`(?:NOTES?|CASH|BILLS?)\s+RETRACT(?:ED)?|RETRACT(?:ED)?\s+(?:NOTES?|CASH|BILLS?)`), hint: 'RETRACT' },
  { event: 'timeout', re: at(String.raw`(?:CUSTOMER|PRESENT|CASH|TAKE)\s*TIME\s?OUT`), hint: 'TIME' },
  { event: 'failure', re: at(String.raw`DISPENSE\s+(?:ERROR|FAIL\w*)(?:.*?(?:CODE|ERR(?:OR)?)\s*[:=]?\s*(?<device>[0-9A-F]{4,10}))?`), hint: 'DISPENSE' },
  { event: 'failure', re: at(String.raw`(?:CDU|CDM)\s+ERROR(?:.*?CODE\s*[:=]?\s*(?<device>[0-9A-F]{4,10}))?`), hint: ['CDU', 'CDM'] },
  {
    event: 'restart',
    re: anywhere(String.raw`POWER\s+ON|SYSTEM\s+START(?:UP)?|MONIPLUS\s+START|APPLICATION\s+(?:RE)?START|REBOOT`),
    hint: ['POWER', 'START', 'REBOOT'],
  },
  { event: 'counterStart', re: at(String.raw`WITHDRAW(?:AL)?\s+COUNTER`), hint: 'COUNTER' },
  { event: 'known', re: /^\s*(?:CST|CASSETTE)?\s*DENOM\s+INIT\s+DIS\s+REJ/i, hint: 'DENOM' },
  {
    event: 'counterCassette',
    re: anywhere(
      String.raw`^\s*(?:CST|CAS(?:SETTE)?)\s*(?<position>\d)\s*:?\s+(?<denom>\d+)\s+(?<init>\d+)\s+(?<dispensed>\d+)\s+(?<rejected>\d+)(?:\s+\d+)?\s*$`,
    ),
    hint: ['CST', 'CAS'],
  },
  // Rows without the cassette's number: their order in the table is the cassette's.
  { event: 'counterCassette', re: /^\s*(?<denom>\d+)\s+(?<init>\d+)\s+(?<dispensed>\d+)\s+(?<rejected>\d+)(?:\s+\d+)?\s*$/ },
  // Receipt and host fields.
  {
    event: 'fields',
    re: anywhere(String.raw`^\s*(?<day>\d\d)\/(?<month>\d\d)\/(?<year>\d\d(?:\d\d)?)\s+(?<time>\d\d:\d\d(?::\d\d)?)\s+(?<atm>[A-Z0-9]{5,16})\s*$`),
    hint: '/',
  },
  {
    event: 'fields',
    re: anywhere(String.raw`^\s*(?<year>\d{4})[/.-](?<month>\d\d)[/.-](?<day>\d\d)\s+(?<time>\d\d:\d\d(?::\d\d)?)\s+(?<atm>[A-Z0-9]{5,16})\s*$`),
  },
  { event: 'fields', re: anywhere(String.raw`(?:ATM|TERMINAL)\s*(?:ID|NO)\.?\s*[:=]\s*(?<atm>[A-Z0-9]{5,16})\s*$`), hint: ['ATM', 'TERMINAL'] },
  {
    event: 'fields',
    re: anywhere(String.raw`^\s*(?:SEQ(?:UENCE)?|TXN|TRAN)\s*(?:NO|NUM(?:BER)?)\.?\s*[:=]\s*(?<serial>\d+)\s*$`),
    hint: ['SEQ', 'TXN', 'TRAN'],
  },
  { event: 'fields', re: anywhere(String.raw`^\s*RRN\s*(?:NO)?\.?\s*[:=]\s*(?<rrn>\d{6,12})\s*$`), hint: 'RRN' },
  { event: 'fields', re: anywhere(String.raw`^\s*STAN\s*[:=]\s*(?<stan>\d{4,6})\s*$`), hint: 'STAN' },
  { event: 'fields', re: anywhere(String.raw`^\s*RESP(?:ONSE)?\s*(?:CODE)?\s*[:=]\s*(?<code>[0-9A-Z]{2,3})\s*$`), hint: 'RESP' },
  { event: 'fields', re: anywhere(String.raw`^\s*WITHDRAWAL\s*[:=]?\s*(?:RS\.?|INR|₹)?\s*(?<amount>\d[\d,]*\.\d\d)\s*$`), hint: 'WITHDRAWAL' },
  { event: 'declined', re: anywhere(String.raw`(?:INSUFFICIENT FUNDS|TRANSACTION DECLINED|DECLINED BY HOST)`), hint: ['INSUFFICIENT', 'DECLINED'] },
];

export const hyosung: Family = {
  name: 'hyosung',
  detect: [
    /^\s*\[(?:\d{2,4}[/.-]\d\d[/.-]\d\d\s+)?\d\d:\d\d:\d\d\]/,
    /DISPENSE\s*:?\s*CST\s*\d\s*[:=]/i,
    /WITHDRAW(?:AL)?\s+COUNTER/i,
    /DENOM\s+INIT\s+DIS\s+REJ/i,
    /(?:NOTES?|CASH|BILLS?)\s+PRESENTED/i,
    /(?:NOTES?|CASH|BILLS?)\s+TAKEN/i,
    /HOST\s+RESPONSE/i,
  ],
  patterns,
  approvedCodes: ['00', '000'],
  ambiguousDates: 'dmy',
  mixedCase: true,
};
