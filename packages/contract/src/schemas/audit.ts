import { Type } from 'typebox';
import { Timestamp } from './common.ts';
import { FilterDate, FilterText, PageQuery } from './lists.ts';

const filters = {
  who: FilterText,
  action: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z_ ]*$' })),
  from: FilterDate,
  to: FilterDate,
};
export const AuditQuery = Type.Object({ ...PageQuery, ...filters }, { additionalProperties: false });
export const AuditExportQuery = Type.Object(filters, { additionalProperties: false });

export const AuditRow = Type.Object({
  id: Type.Integer(),
  at: Timestamp,
  user_email: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  entity: Type.String(),
  entity_id: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
});

/** A contiguous range of the chain (whole UTC days), for the signed chain file. */
export const AuditChainQuery = Type.Object({ from: FilterDate, to: FilterDate }, { additionalProperties: false });

const ChainProblem = Type.Object({
  kind: Type.Union([Type.Literal('changed'), Type.Literal('inserted'), Type.Literal('removed'), Type.Literal('removed_newest')]),
  id: Type.Integer(),
  detail: Type.String(),
});

/** The chain walked: whether it holds, and the first entry changed, removed or inserted. */
export const AuditChainReport = Type.Object({
  ok: Type.Boolean(),
  entries: Type.Integer(),
  first: Type.Union([ChainProblem, Type.Null()]),
  problems: Type.Array(ChainProblem),
  last_hash: Type.String(),
});
