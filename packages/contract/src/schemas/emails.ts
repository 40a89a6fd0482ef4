import { Type } from 'typebox';
import { Timestamp } from './common.ts';
import { EstimatedPageQuery, FilterDate, FilterText, Ordering } from './lists.ts';

/** The dashboard's month (2026-Nov): a list opened from a dashboard count shows the emails it counted. */
const FilterMonth = Type.Optional(Type.String({ maxLength: 20 }));

export const DashboardQuery = Type.Object({ date: Type.String({ maxLength: 20 }) }, { additionalProperties: false });

export const DashboardCounts = Type.Object({
  total_emails: Type.Integer(),
  read: Type.Integer(),
  unread: Type.Integer(),
  email_ignores: Type.Integer(),
  ej_not_found: Type.Integer(),
  email_same_subject_processing: Type.Integer(),
  email_same_subject_count: Type.Integer(),
});

export const EmailListRow = Type.Object({
  id: Type.Integer(),
  email_from: Type.String(),
  subject_name: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});

export const AllEmailQuery = Type.Object(
  {
    ...EstimatedPageQuery,
    subject_name: FilterText,
    email_from: FilterText,
    create_at_after: FilterDate,
    create_at_before: FilterDate,
    month: FilterMonth,
    ordering: Ordering,
  },
  { additionalProperties: false },
);

export const CategoryQuery = Type.Object(
  { ...EstimatedPageQuery, subject: FilterText, date: FilterDate, month: FilterMonth, ordering: Ordering },
  { additionalProperties: false },
);

const JsonRecord = Type.Record(Type.String(), Type.Unknown());
export const EmailJsonItem = Type.Object({
  id: Type.Integer(),
  subject_name: Type.String(),
  json_load_data: Type.Array(JsonRecord),
});
export const JsonDataQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })) }, { additionalProperties: false });

export const EmailDetails = Type.Object({
  id: Type.Integer(),
  from_email: Type.String(),
  to_email: Type.String(),
  subject: Type.String(),
  email_body: Type.String(),
  email_body_html: Type.String(),
  num_of_email: Type.Integer(),
  date_time_of_email: Timestamp,
  create_at: Timestamp,
  update_at: Timestamp,
});

/**
 * What an email brought and produced: its attachments as the sender attached them (each
 * downloadable by its index), the data files extracted from it with their rows, its EJ records by
 * kind, and the disputes of its dispute records (the first 100; disputes_total counts them all).
 * attachments_problem says why the attachments cannot be listed (no stored message, or it does not parse).
 */
export const EmailProduce = Type.Object({
  attachments: Type.Array(Type.Object({ index: Type.Integer(), file_name: Type.String(), content_type: Type.String(), size: Type.Integer() })),
  attachments_problem: Type.Union([Type.String(), Type.Null()]),
  files: Type.Array(Type.Object({ id: Type.Integer(), kind: Type.String(), name: Type.String(), rows: Type.Integer() })),
  records: Type.Object({ dispute: Type.Integer(), overage: Type.Integer(), succeeding: Type.Integer() }),
  disputes: Type.Array(
    Type.Object({
      id: Type.Integer(),
      atm_id: Type.String(),
      txt_no: Type.String(),
      status: Type.Union([Type.Literal('open'), Type.Literal('awaiting_msp'), Type.Literal('resolved')]),
      outcome: Type.Union([Type.Literal('credited'), Type.Literal('rejected'), Type.Literal('other'), Type.Null()]),
      overdue_days: Type.Integer(),
    }),
  ),
  disputes_total: Type.Integer(),
});

export const AttachmentParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  index: Type.Integer({ minimum: 0, maximum: 9999 }),
});
