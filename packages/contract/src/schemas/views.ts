// Saved views (/api/views/): a list's filters, order and page size as a query string, with the
// columns if the operator chose them, under a name. Personal, or shared with everyone by an admin.
import { Type } from 'typebox';
import { Timestamp } from './common.ts';
import { ColumnChoice } from './preferences.ts';

/** A list's name, as its column choice names it: 'email', 'text-email-data', 'overage', ... */
const ListName = Type.String({ pattern: '^[a-z][a-z0-9-]{0,39}$', maxLength: 40 });

/** Printable text that neither starts nor ends with a space. */
const ViewName = Type.String({
  minLength: 1,
  maxLength: 80,
  pattern: '^(?!\\s)[^\\u0000-\\u001f\\u007f]*[^\\u0000-\\u001f\\u007f\\s]$',
});

/** The list's URL query without its '?' (`bank_name=harbor&ordering=-atm_id&page_size=20`). */
const ViewQuery = Type.String({ maxLength: 2000, pattern: '^[^\\u0000-\\u0020\\u007f?#]*$' });

export const ViewParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
export const ViewListQuery = Type.Object({ list: ListName }, { additionalProperties: false });

/** What a view holds and the operator may change; the list stays the view's own. */
const viewFields = {
  name: ViewName,
  query: ViewQuery,
  columns: Type.Optional(Type.Union([ColumnChoice, Type.Null()])),
  shared: Type.Optional(Type.Boolean()),
  default: Type.Optional(Type.Boolean()),
};
export const ViewInput = Type.Object({ list: ListName, ...viewFields }, { additionalProperties: false });
export const ViewChange = Type.Object(viewFields, { additionalProperties: false });

export const View = Type.Object({
  id: Type.Integer(),
  list: Type.String(),
  name: Type.String(),
  query: Type.String(),
  columns: Type.Union([ColumnChoice, Type.Null()]),
  shared: Type.Boolean(),
  /** The asking operator's default for the list. */
  default: Type.Boolean(),
  /** The asking operator owns it (and may change it). */
  mine: Type.Boolean(),
  owner: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});
export const Views = Type.Array(View);
