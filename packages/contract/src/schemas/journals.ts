// Electronic journals (EJ) and the evidence they give a dispute: the Journals list, one journal with
// its transactions, a range of its lines as received, an upload's answer, and a dispute's evidence.
// Line numbers are 1-based, as in the file received. Amounts are decimal text ('2000.00'); a
// journal's times are the ATM's local time without a zone ('2025-02-04T06:26:55').
import { Type, type TSchema } from 'typebox';
import { anomalyKinds, journalSources, matchKinds, verdicts } from '../journals.ts';
import { Timestamp } from './common.ts';
import { EstimatedPageQuery, FilterDate, FilterText } from './lists.ts';

/** A word of a list: the list's union, as the schema and its static type. */
const literals = <T extends readonly string[]>(words: T) => Type.Enum<[...T]>([...words]);
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Amount = nullable(Type.String());
const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const VerdictWord = literals(verdicts);
const AnomalyWord = literals(anomalyKinds);

const Anomaly = Type.Object({ line: Type.Integer(), kind: AnomalyWord, text: Type.String() });

/** A journal as the Journals list shows it. */
export const JournalItem = Type.Object({
  id: Type.Integer(),
  file_name: Type.String(),
  atm_id: nullable(Type.String()),
  day: nullable(Type.String()),
  family: Type.String(),
  sha256: Type.String(),
  size_bytes: Type.Integer(),
  line_count: Type.Integer(),
  unknown_lines: Type.Integer(),
  transaction_count: Type.Integer(),
  /** How many anomalies, and of which kinds (each kind once). */
  anomaly_count: Type.Integer(),
  anomaly_kinds: Type.Array(AnomalyWord),
  source: literals(journalSources),
  email_id: nullable(Type.Integer()),
  /** The user who uploaded it (their id), for an upload. */
  uploaded_by: nullable(Type.Integer()),
  create_at: Timestamp,
});

/** The Journals list's filters: an ATM (its ID contains the text), a day or a range of days, an anomaly kind, a family. */
export const JournalListQuery = Type.Object(
  {
    ...EstimatedPageQuery,
    atm_id: FilterText,
    day: FilterDate,
    day_from: FilterDate,
    day_to: FilterDate,
    anomaly: Type.Optional(AnomalyWord),
    family: FilterText,
  },
  { additionalProperties: false },
);

export const JournalIdParams = Type.Object({ id: Id });

/** One transaction of a journal, with the lines it spans and those its verdict rests on. */
export const JournalTransaction = Type.Object({
  id: Type.Integer(),
  seq: Type.Integer(),
  kind: Type.String(),
  atm_id: nullable(Type.String()),
  at: nullable(Type.String()),
  card_last4: nullable(Type.String()),
  rrn: nullable(Type.String()),
  stan: nullable(Type.String()),
  serial: nullable(Type.String()),
  response_code: nullable(Type.String()),
  requested_amount: Amount,
  /** Notes presented per cassette (cassette 1 first), as printed. */
  presented: nullable(Type.Array(Type.Integer())),
  dispensed_amount: Amount,
  verdict: nullable(VerdictWord),
  reason: Type.String(),
  lines: Type.Object({ from: Type.Integer(), to: Type.Integer() }),
  evidence: Type.Array(Type.Integer()),
  /** The journal ends before the transaction does ('end'), or begins after its start ('start'). */
  cut: nullable(Type.Union([Type.Literal('end'), Type.Literal('start')])),
});

const Cassette = Type.Object({
  position: Type.Integer(),
  denomination: nullable(Type.Integer()),
  dispensed: nullable(Type.Integer()),
  rejected: nullable(Type.Integer()),
  remaining: nullable(Type.Integer()),
});

/** A cassette table the journal printed (CASH TOTAL, WITHDRAW COUNTER, ...). */
export const CounterSnapshot = Type.Object({ line: Type.Integer(), at: nullable(Type.String()), cassettes: Type.Array(Cassette) });

/** A journal with its anomalies, its transactions in journal order and its cassette tables. */
export const JournalDetail = Type.Object({
  ...JournalItem.properties,
  anomalies: Type.Array(Anomaly),
  transactions: Type.Array(JournalTransaction),
  counters: Type.Array(CounterSnapshot),
});

/** At most this many lines are answered at once. */
export const maxLinesAsked = 5000;

export const JournalLinesQuery = Type.Object(
  { from: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })), to: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })) },
  { additionalProperties: false },
);

const Line = Type.Object({ number: Type.Integer(), text: Type.String() });

/** Lines from..to of the file as received (decoded from its charset), and how many it has. */
export const JournalLines = Type.Object({
  journal_id: Type.Integer(),
  from: Type.Integer(),
  to: Type.Integer(),
  line_count: Type.Integer(),
  lines: Type.Array(Line),
});

/** An upload's answer: the journal stored (created) or the one already stored with the same SHA-256. */
export const JournalUpload = Type.Object({
  created: Type.Boolean(),
  journal: Type.Object({
    id: Type.Integer(),
    file_name: Type.String(),
    atm_id: nullable(Type.String()),
    day: nullable(Type.String()),
    family: Type.String(),
    sha256: Type.String(),
    line_count: Type.Integer(),
    transaction_count: Type.Integer(),
    anomaly_kinds: Type.Array(AnomalyWord),
    source: literals(journalSources),
  }),
});

/** What a verdict suggests: the dispute's status and outcome, and what to do in the operators' words. */
export const Suggestion = Type.Object({
  status: Type.Union([Type.Literal('open'), Type.Literal('awaiting_msp'), Type.Literal('resolved')]),
  outcome: nullable(Type.Union([Type.Literal('credited'), Type.Literal('rejected'), Type.Literal('other')])),
  advice: Type.String(),
});

/** A line of an excerpt: its number in its own file, and whether the verdict rests on it. */
const ExcerptLine = Type.Object({
  number: Type.Integer(),
  text: Type.String(),
  evidence: Type.Boolean(),
  /** The journal the line is in: the next file's, for the rest of a transaction cut between two files. */
  journal_id: Type.Integer(),
});

/** A transaction near the disputed one (the three before and after), collapsed by default. */
const NearTransaction = Type.Object({
  seq: Type.Integer(),
  kind: Type.String(),
  at: nullable(Type.String()),
  requested_amount: Amount,
  dispensed_amount: Amount,
  verdict: nullable(VerdictWord),
  lines: Type.Object({ from: Type.Integer(), to: Type.Integer() }),
  excerpt: Type.Array(ExcerptLine),
});

/**
 * A dispute's evidence: the verdict of the journal transaction it matched, what the customer asked
 * for and took, how it matched, the journal, the transaction's lines (those the verdict rests on
 * marked), the three transactions before and after, and the cassette counts nearest to it.
 */
export const Evidence = Type.Object({
  verdict: nullable(VerdictWord),
  /** The facts the verdict rests on, in the operators' words ('' without a transaction). */
  reason: Type.String(),
  /** The transaction's time (the ATM's), and when the dispute was matched. */
  at: nullable(Type.String()),
  matched_at: Timestamp,
  requested_amount: Amount,
  dispensed_amount: Amount,
  match: literals(matchKinds),
  /** How many journal transactions fitted (more than one: 'ambiguous', no verdict). */
  candidates: Type.Integer(),
  journal: nullable(
    Type.Object({ id: Type.Integer(), file_name: Type.String(), atm_id: nullable(Type.String()), day: nullable(Type.String()), sha256: Type.String() }),
  ),
  lines: nullable(Type.Object({ from: Type.Integer(), to: Type.Integer() })),
  /** The rest of a transaction cut between two files: the next file, and the transaction's lines in it. */
  continuation: nullable(
    Type.Object({
      journal: Type.Object({ id: Type.Integer(), file_name: Type.String(), sha256: Type.String() }),
      lines: Type.Object({ from: Type.Integer(), to: Type.Integer() }),
    }),
  ),
  excerpt: Type.Array(ExcerptLine),
  before: Type.Array(NearTransaction),
  after: Type.Array(NearTransaction),
  counters: nullable(CounterSnapshot),
  /** What the verdict suggests for the dispute (none for indeterminate or no verdict). */
  suggestion: nullable(Suggestion),
});
