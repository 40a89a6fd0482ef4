// NCR APTRA Advance NDC journals as Indian switches configure them.
//
// What these patterns rest on (public descriptions and samples of such journals):
// - The desk's own description of the lines (EJ Desk issue "Journal evidence"): the sequence header
//   `[020t*476*04/02/2025*06:26:55*`, `*TRANSACTION START*`, `CARD INSERTED`, `PIN ENTERED`,
//   `OPCODE = AB   C`, `AMOUNT 2000 ENTERED`, `REQUEST SENT [AMOUNT=00200000]`,
//   `RESPONSE RECEIVED [FUNCTION ID=9,  TXN SN NO=6437]`, `NOTES STACKED`, `NOTES PRESENTED 0,4,0,0`,
//   `NOTES TAKEN`, `CUSTOMER TIMEOUT`, `UNABLE TO DISPENSE`, `M-03 R-0011`, power-up lines, receipts
//   (`CARD NUMBER`, `TXN NO`, `RRN`, `STAN`, `RESPONSE CODE`, `WITHDRAWAL RS. 2000.00`), `CASH TOTAL`.
// - A reconciliation loader's pattern registry for Indian NCR journals (public GitHub, package
//   com.jpb.reconciliation...atmej.parser, EjPatterns.java; code index id 52138296489) and its test
//   (EjTransactionParserTest.java, id 51957972183): the header `\[\d+t\*(\d+)\*(dd/dd/dddd)\*time\*`,
//   `REQUEST SENT [AMOUNT=00001000]` beside a receipt `WITHDRAWAL RS. 1000.00` (the field in rupees
//   there), `RESPONSE RECEIVED [FUNCTION ID=B,  TXN SN NO=6436]`, receipt lines `02-APR-2025 07:37
//   EFNJ000389010`, `CARD NUMBER`, `TXN NO`, `REFERENCE NO`, `RESPONSE CODE 000`, and the CASH TOTAL
//   rows `DISPENSED`, `REJECTED`, `REMAINING` (with an optional leading `+`).
// - A public NCR NX journal generator modelled on a bank's dumps (code index id 59415998576): lines
//   prefixed by the ESC sequence `\x1b[020t`, the header as `*SEQ*MM/DD/YYYY*HH:MM:SS*`,
//   `DATE dd-mm-yy    TIME hh:mm:ss`, `NOTES PRESENTED` over `POSITION 1,2,3,0` and `COUNT 0,4,0,0`
//   lines, receipts `DATE TIME ATM ID` over `dd/mm/yy hh:mm ATMID`, `TXN NO.`, `RRN.`,
//   `RESPONSE CODE 000`, and `CASH TOTAL TYPE1..TYPE4` with rows `CASS POSITION`, `DENOMINATION`,
//   `DISPENSED`, `REJECTED`, `REMAINING` (five-digit counts per cassette type), `NOTES RETRACTED`.
// - NCR device-error blocks in public test sessions (code index id 57667957272):
//   `*7249*1*(Iw(1*3, M-02, R-10011` then `DEVICE ERROR`; `[05pPOWER-UP/RESET` and
//   `APTRA ADVANCE NDC` after a reset (id 26463525286).
// - A day's journal of an NCR ATM (github.com/YanBelle/Capstone-Project,
//   abm-anomaly-ml-first/data/input/processed/ABM250EJ_20250618_20250618.txt, as cited by the desk's
//   journal generator, tools/journal-gen/README.md): headers without seconds (`*632*06/18/2025*04:48*`),
//   `PAN 0004263********2113` lines, CASH TOTAL after each withdrawal, `*PRIMARY CARD READER ACTIVATED*`.
// - NDC dispenser status values (github.com/softwaregroup-bg/ut-codec-ndc, README.md, after the APTRA
//   Advance NDC Reference Manual): device status lines `*7037*1*E*4, M-03, R-00310` where the cash
//   handler (E) reports 2 or 4 (no notes dispensed), 3 (notes dispensed unknown), 5 (notes retracted
//   after a present time-out).
// - Read in the style of the desk's description, as the generator prints them (no public sample):
//   `TRANSACTION DECLINED  RC:51 ...`, `REVERSAL SENT [AMOUNT=...]`, `*APPLICATION RESTART*`.
// Dates: the header's date is month/day/year in the NCR samples and day/month/year in the desk's
// description, so its order is settled per file (a day above 12, a receipt's dd/mm/yy date, the file
// name); receipts print dd/mm/yy or dd-MON-yyyy. Notes are counted per cassette type (TYPE1..TYPE4),
// the same order as CASH TOTAL's columns. `[AMOUNT=...]` is read in rupees or paise, whichever agrees
// with the amount entered, the receipt or the notes presented.
import type { Family, LinePattern } from './family.ts';

// The optional ESC sequence (`\x1b[020t`, or `[020t` where the ESC was lost) and time that prefix lines.
const lead = String.raw`^[\s\x1b]*(?:\[\d{2,3}[a-z])?[\s\x1b]*(?:(?<time>\d\d:\d\d(?::\d\d)?)\s+)?`;
const at = (body: string) => new RegExp(lead + body, 'i');
const anywhere = (body: string) => new RegExp(body, 'i');
const card = String.raw`(?<card>\d[\d*Xx]{8,17}\d{4})`;

const patterns: LinePattern[] = [
  {
    event: 'stamp',
    re: new RegExp(String.raw`^[\s\x1b]*(?:\[\d{2,3}[a-z])?\*(?:\d+\*)?(?<p1>\d\d)\/(?<p2>\d\d)\/(?<year>\d{4})\*(?<time>\d\d:\d\d(?::\d\d)?)\*`),
    hint: '*',
  },
  { event: 'start', re: /\*TRANSACTION START\*/, hint: 'TRANSACTION START' },
  { event: 'end', re: at('TRANSACTION END'), hint: 'TRANSACTION END' },
  {
    event: 'known',
    re: at(String.raw`(?:CARD INSERTED|PIN ENTERED|CARD TAKEN|OPCODE\b|ATR RECEIVED|GENAC|NOTES STACKED|RECEIPT PRINTED|\*?PRIMARY CARD READER)`),
    hint: ['CARD INSERTED', 'PIN ENTERED', 'CARD TAKEN', 'OPCODE', 'ATR RECEIVED', 'GENAC', 'NOTES STACKED', 'RECEIPT PRINTED', 'PRIMARY CARD READER'],
  },
  { event: 'fields', re: at(String.raw`CARD\s*:\s*${card}`), hint: 'CARD' },
  { event: 'fields', re: /^\s*PAN\s+(?<card>\d[\d*Xx]{8,17}\d{4})\s*$/, hint: 'PAN' },
  { event: 'amount', re: at(String.raw`AMOUNT\s+(?:ENTERED\s*:?\s*\D{0,3})?(?<amount>\d[\d,]*(?:\.\d\d)?)(?:\s+ENTERED)?\s*$`), hint: 'AMOUNT' },
  { event: 'request', re: at(String.raw`REQUEST SENT(?:\s*\[AMOUNT=(?<minor>\d+)\])?`), hint: 'REQUEST SENT' },
  { event: 'reversal', re: at(String.raw`(?:REVERSAL|REVERSED)\b`), hint: 'REVERS' },
  { event: 'response', re: at(String.raw`RESPONSE RECEIVED(?:\s*\[FUNCTION ID=[^,\]]*,\s*TXN SN NO=(?<serial>\d+)\])?`), hint: 'RESPONSE RECEIVED' },
  { event: 'presented', re: at(String.raw`NOTES PRESENTED\s*:?\s*(?<notes>\d+(?:\s*,\s*\d+)+)`), hint: 'NOTES PRESENTED' },
  { event: 'presented', re: at(String.raw`NOTES PRESENTED\s*$`), hint: 'NOTES PRESENTED' },
  { event: 'counts', re: /^\s*COUNT\s+(?<notes>\d+(?:\s*,\s*\d+)+)\s*$/, hint: 'COUNT' },
  { event: 'known', re: /^\s*POSITION\s+\d+(?:\s*,\s*\d+)+\s*$/, hint: 'POSITION' },
  { event: 'taken', re: at('NOTES TAKEN'), hint: 'NOTES TAKEN' },
  { event: 'timeout', re: at(String.raw`(?:CUSTOMER|PRESENT(?:ER)?|CASH|NOTES?)\s+TIME\s?OUT`), hint: 'TIME' },
  { event: 'retracted', re: at(String.raw`(?:NOTES|CASH)\s+RETRACTED|RETRACT(?:ED)?\s+(?:NOTES|CASH)`), hint: 'RETRACT' },
  // Device status: `*7037*1*E*4, M-03, R-00310` (dispenser E, status 4: nothing dispensed).
  { event: 'status', re: /^\s*\*\d+\*\d+\*(?<device>[A-Za-z])\*(?<status>\d)\s*,/, hint: '*' },
  { event: 'failure', re: anywhere(String.raw`(?<device>M-\d\d\s*,?\s*R-\d+)`), hint: 'R-' },
  {
    event: 'failure',
    hint: ['DISPENSE', 'DEVICE ERROR', 'PRESENTER ERROR'],
    re: at(String.raw`(?:UNABLE TO DISPENSE|DISPENSE (?:ERROR|FAIL\w*)|DISPENSER (?:ERROR|FAULT)|DEVICE ERROR|PRESENTER ERROR)(?:\D*(?<device>\d+))?`),
  },
  {
    event: 'restart',
    re: anywhere(String.raw`POWER[- ]?UP|POWER INTERRUPTION|APTRA ADVANCE NDC|(?:SYSTEM|APPLICATION) (?:RE)?START`),
    hint: ['POWER', 'APTRA', 'SYSTEM', 'APPLICATION'],
  },
  { event: 'counterStart', re: /^\s*CASH TOTAL\b/, hint: 'CASH TOTAL' },
  {
    event: 'counterRow',
    re: /^\s*\+?(?<field>CASS POSITION|DENOMINATION|DISPENSED|REJECTED|REMAINING|UNKNOWN)\s+(?<values>\d+(?:\s+\d+)*)\s*$/,
    hint: ['CASS POSITION', 'DENOMINATION', 'DISPENSED', 'REJECTED', 'REMAINING', 'UNKNOWN'],
  },
  // Receipts.
  { event: 'stamp', re: /^\s*DATE\s+(?<day>\d\d)-(?<month>\d\d)-(?<year>\d\d)\s+TIME\s+(?<time>\d\d:\d\d(?::\d\d)?)/, hint: 'DATE' },
  { event: 'known', re: /^\s*DATE\s+TIME\s+ATM\s*ID\s*$/, hint: 'ATM' },
  {
    event: 'fields',
    hint: '/',
    re: /^[\s-]*(?<day>\d\d)\/(?<month>\d\d)\/(?<year>\d\d(?:\d\d)?)\s+(?<time>\d\d:\d\d(?::\d\d)?)\s+(?:\d{6,10}\s+)?(?<atm>[A-Z0-9]{5,16})\s*$/,
  },
  { event: 'fields', re: /^\s*(?<day>\d\d)-(?<mon>[A-Z]{3})-(?<year>\d{4})\s+(?<time>\d\d:\d\d(?::\d\d)?)\s+(?<atm>[A-Z0-9]{5,16})\s*$/, hint: '-' },
  { event: 'fields', re: anywhere(String.raw`ATM\s*ID\s*[:.]?\s*(?<atm>[A-Z0-9]{5,16})\s*$`), hint: 'ATM' },
  { event: 'fields', re: anywhere(String.raw`CARD\s*(?:NUMBER|NO)\.?\s*:?\s*${card}`), hint: 'CARD' },
  { event: 'fields', re: anywhere(String.raw`^\s*TXN\s*(?:NO|SN)\.?\s*:?\s*(?<serial>\d+)`), hint: 'TXN' },
  { event: 'fields', re: anywhere(String.raw`^\s*(?:RRN|REF(?:ERENCE)?\s*NO)\.?\s*:?\s*(?<rrn>\d{6,12})\s*$`), hint: ['RRN', 'REF'] },
  { event: 'fields', re: anywhere(String.raw`^\s*STAN\s*(?:NO)?\.?\s*:?\s*(?<stan>\d{4,6})\s*$`), hint: 'STAN' },
  { event: 'fields', re: anywhere(String.raw`^\s*RESP(?:ONSE)?\s*CODE\s*[:.]?\s*(?<code>[0-9A-Z]{2,3})\s*$`), hint: 'RESP' },
  { event: 'fields', re: anywhere(String.raw`^\s*WITHDRAWAL\s*(?:RS\.?|INR|₹)?\s*(?<amount>\d[\d,]*\.\d\d)\s*$`), hint: 'WITHDRAWAL' },
  {
    event: 'declined',
    re: anywhere(String.raw`(?:UNABLE TO PROCESS|INSUFFICIENT FUNDS|TRANSACTION DECLINED|DECLINED BY HOST)`),
    hint: ['UNABLE TO PROCESS', 'INSUFFICIENT', 'DECLINED'],
  },
];

export const ncr: Family = {
  name: 'ncr',
  detect: [
    /\[\d{2,3}[a-z]\*\d+\*\d\d\/\d\d\/\d{4}\*/,
    /\*TRANSACTION START\*/,
    /NOTES PRESENTED/,
    /NOTES TAKEN/,
    /RESPONSE RECEIVED/,
    /REQUEST SENT/,
    /^\s*CASH TOTAL/,
    /NOTES STACKED/,
  ],
  patterns,
  approvedCodes: ['00', '000'],
  ambiguousDates: 'mdy',
};
