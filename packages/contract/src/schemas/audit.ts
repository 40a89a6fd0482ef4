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
