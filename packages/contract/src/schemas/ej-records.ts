import { Type } from 'typebox';
import { EstimatedPageQuery, FilterDate, FilterText, Ordering } from './lists.ts';
import { VerdictWord } from './journals.ts';

const Text = Type.String();
const Amount = Type.Union([Type.String(), Type.Null()]);
const Day = Type.Union([Type.String(), Type.Null()]);

/** An EJ error record as the original named its fields. */
export const EjRecord = Type.Object({
  id: Type.Integer(),
  atm_id: Text,
  card_no: Text,
  txt_no: Text,
  transaction_date: Day,
  transaction_amt: Amount,
  dispute_amt: Amount,
  overage: Amount,
  msp_remarks: Text,
  msp_ref_no: Text,
  short_desc_ej_error: Text,
  ej_error: Text,
  complaint_date: Day,
  short_description: Text,
  mail_received_from: Text,
  mail_subject: Text,
});

/** Overage and succeeding records also name the file they came from. */
export const EjFileRecord = Type.Object({ ...EjRecord.properties, file_name: Text });

const filterFields = {
  start_date: FilterDate,
  end_date: FilterDate,
  atm_id: FilterText,
  bank_name: FilterText,
  card_no: FilterText,
  mail_subject: FilterText,
  mail_received_from: FilterText,
};

/**
 * The dispute table's filters: the record's, its dispute's clock (a quick filter, an age in days),
 * and the verdict of the journal transaction the dispute matched.
 */
export const ejFilterFields = {
  ...filterFields,
  tat: Type.Optional(
    Type.Union([Type.Literal('open'), Type.Literal('breached'), Type.Literal('due_today'), Type.Literal('due_soon'), Type.Literal('resolved')]),
  ),
  age_from: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  age_to: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  verdict: Type.Optional(VerdictWord),
  /** Whose disputes: 'me' (the caller's) or an account's id. */
  owner: Type.Optional(Type.String({ pattern: '^(me|[1-9][0-9]{0,8})$' })),
  /** Disputes to follow up: 'today' (on the clock's day), 'due' (today or before, not yet done). */
  follow_up: Type.Optional(Type.Union([Type.Literal('today'), Type.Literal('due')])),
};

export const EjTableQuery = Type.Object({ ...EstimatedPageQuery, ...ejFilterFields, ordering: Ordering }, { additionalProperties: false });

export const EjExportQuery = Type.Object(
  {
    kind: Type.Optional(Type.Union([Type.Literal('dispute'), Type.Literal('overage'), Type.Literal('succeeding')])),
    format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
    ...ejFilterFields,
    /** Only the records of these disputes (the ticked rows): ids, comma-separated, at most 1,000. */
    disputes: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}(,[0-9]{1,15}){0,999}$' })),
  },
  { additionalProperties: false },
);

export const EmptyQuery = Type.Object({}, { additionalProperties: false });
