// What a parsed electronic journal (EJ) says: its transactions with their verdicts, the cassette
// counts it printed and its anomalies. Line numbers are 1-based in the file as received.

/** What happened to the cash of one withdrawal (docs/journals.md). */
export const verdicts = ['dispensed', 'partial', 'not_dispensed', 'retracted', 'reversed', 'indeterminate'] as const;
export type Verdict = (typeof verdicts)[number];

/** A declined withdrawal (the host refused, nothing presented) has no verdict. */
export const transactionKinds = ['withdrawal', 'declined', 'other'] as const;
export type TransactionKind = (typeof transactionKinds)[number];

export interface JournalTransaction {
  /** 1-based order in the journal. */
  seq: number;
  kind: TransactionKind;
  atmId: string | null;
  /** The ATM's local time, 'YYYY-MM-DDTHH:MM:SS' (journals print no zone). */
  at: string | null;
  cardLast4: string | null;
  rrn: string | null;
  stan: string | null;
  /** The journal's own transaction serial (NCR's TXN SN / TXN NO, Hyosung's sequence number). */
  serial: string | null;
  responseCode: string | null;
  /** Rupees as a decimal string ('2000.00'). */
  requestedAmount: string | null;
  /** Notes presented per cassette (index 0 is cassette 1), as the journal printed them. */
  presented: number[] | null;
  /** Notes presented times each cassette's denomination; '0.00' unless taken; null when indeterminate. */
  dispensedAmount: string | null;
  /** Null for other kinds than withdrawals (declined ones included). */
  verdict: Verdict | null;
  /** The facts the verdict rests on, in the operators' words. */
  reason: string;
  lines: { from: number; to: number };
  /** The lines that decided the verdict. */
  evidence: number[];
  /** The journal ends before the transaction does (its rest may be in the next file), or begins after its start. */
  cut: 'end' | 'start' | null;
}

export interface CassetteCount {
  /** 1-based cassette position. */
  position: number;
  denomination: number | null;
  dispensed: number | null;
  rejected: number | null;
  remaining: number | null;
}

/** A cassette table the journal printed (NCR's CASH TOTAL, Hyosung's WITHDRAW COUNTER, ...). */
export interface CounterSnapshot {
  line: number;
  at: string | null;
  cassettes: CassetteCount[];
}

export const anomalyKinds = ['dispense_failure', 'retract', 'restart', 'cut', 'contradiction', 'gap'] as const;
export type AnomalyKind = (typeof anomalyKinds)[number];

export interface Anomaly {
  line: number;
  kind: AnomalyKind;
  text: string;
}

export interface ParsedJournal {
  /** The family whose patterns read it ('ncr', 'diebold', 'hyosung', or a bank's variant). */
  family: string;
  /** From the journal itself (header, receipts), else from the file name; null when neither says. */
  atmId: string | null;
  /** The first day the journal covers, 'YYYY-MM-DD' (journal, else file name). */
  day: string | null;
  lineCount: number;
  /** Lines no pattern of the family knew: kept in the file, skipped by the reading. */
  unknownLines: number;
  transactions: JournalTransaction[];
  counters: CounterSnapshot[];
  anomalies: Anomaly[];
}
