// NCR journals written for the tests, in the shape of packages/journal's samples: a day's
// withdrawals with their receipts (ATM ID, RRN, STAN), then the cassette table that states the
// denominations.
export interface Withdrawal {
  time: string;
  serial: string;
  card: string;
  amount: number;
  rrn?: string;
  stan?: string;
  /** The dispense: 'dispensed' (notes taken), 'failed' (unable to dispense), 'retracted', 'reversed'. */
  outcome: 'dispensed' | 'failed' | 'retracted' | 'reversed';
  /** Notes of 500 presented (default: the amount's worth). */
  notes?: number;
}

/** One withdrawal's lines, 'DD/MM/YYYY' day. */
function withdrawalLines(atm: string, day: string, w: Withdrawal): string[] {
  const [dd, mm, yyyy] = day.split('/');
  const t = (s: number) => {
    const [h, m, sec] = w.time.split(':').map(Number) as [number, number, number];
    const total = h * 3600 + m * 60 + sec + s;
    return [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60].map((n) => String(n).padStart(2, '0')).join(':');
  };
  const notes = w.notes ?? w.amount / 500;
  const body =
    w.outcome === 'dispensed'
      ? [`[020t ${t(5)} NOTES STACKED`, `[020t ${t(8)} NOTES PRESENTED 0,${notes},0,0`, `[020t ${t(11)} NOTES TAKEN`]
      : w.outcome === 'retracted'
        ? [`[020t ${t(5)} NOTES STACKED`, `[020t ${t(8)} NOTES PRESENTED 0,${notes},0,0`, `[020t ${t(38)} CUSTOMER TIMEOUT`, `[020t ${t(39)} NOTES RETRACTED`]
        : w.outcome === 'failed'
          ? ['*7249*1*(Iw(1*3, M-03, R-0011', 'UNABLE TO DISPENSE']
          : ['*7250*1*(Iw(1*3, M-03, R-0011', 'UNABLE TO DISPENSE', `${t(10)} REVERSAL SENT`];
  return [
    `[020t*${w.serial}*${day}*${w.time}*`,
    '     *TRANSACTION START*',
    '[020t CARD INSERTED',
    `[020tCARD: 608001******${w.card}`,
    `${t(2)} AMOUNT ${w.amount} ENTERED`,
    `${t(2)} REQUEST SENT [AMOUNT=${String(w.amount * 100).padStart(8, '0')}]`,
    `${t(3)} RESPONSE RECEIVED [FUNCTION ID=9,  TXN SN NO=${w.serial}]`,
    ...body,
    '    DATE       TIME       ATM ID',
    `    ${dd}/${mm}/${yyyy!.slice(2)}   ${w.time.slice(0, 5)}      ${atm}`,
    `    CARD NUMBER:  608001XXXXXX${w.card}`,
    `    TXN NO.     ${w.serial}`,
    `    WITHDRAWAL    RS. ${w.amount}.00`,
    '    RESPONSE CODE              000',
    ...(w.rrn ? [`    RRN.               ${w.rrn}`] : []),
    ...(w.stan ? [`    STAN     ${w.stan}`] : []),
    `[020t ${t(20)} TRANSACTION END`,
  ];
}

const cashTotal = [
  'CASH TOTAL       TYPE1 TYPE2 TYPE3 TYPE4',
  'CASS POSITION        1     2     3     0',
  'DENOMINATION       100   500   200     0',
  'DISPENSED        00000 00006 00006 00000',
  'REJECTED         00000 00001 00000 00000',
  'REMAINING        01000 01994 00994 00000',
];

/** A day's journal of an ATM: the header, the withdrawals, the cassette table. */
export function ncrJournal(atm: string, day: string, withdrawals: Withdrawal[], { table = true } = {}): string[] {
  return [
    `[020t*470*${day}*06:00:01*`,
    '*PRIMARY CARD READER ACTIVATED*',
    ...withdrawals.flatMap((w) => withdrawalLines(atm, day, w)),
    ...(table ? cashTotal : []),
  ];
}
