import { Type } from 'typebox';
import { Timestamp } from './common.ts';

/** `columns.<table>`: the one kind of preference the console keeps today. */
export const PreferenceParams = Type.Object({
  key: Type.String({ pattern: '^columns\\.[a-z][a-z0-9-]{0,39}$', maxLength: 48 }),
});

// A column's id is its key or header (a JSON data table's come from the mail), so any printable text.
const ColumnIds = Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }), { maxItems: 60, uniqueItems: true });

/** The widths the operator dragged columns to, in CSS pixels, by column id (ids as above). */
const ColumnWidths = Type.Record(Type.String({ pattern: '^[^\\u0000-\\u001f\\u007f]{1,200}$' }), Type.Integer({ minimum: 40, maximum: 1200 }), {
  maxProperties: 60,
  additionalProperties: false,
});

/**
 * A table's columns as the operator arranged them: every id in its order, the hidden ones, any
 * widths, and the columns pinned at the left (they lead the order and stay while the table scrolls).
 */
export const ColumnChoice = Type.Object(
  { order: ColumnIds, hidden: ColumnIds, widths: Type.Optional(ColumnWidths), pinned: Type.Optional(ColumnIds) },
  { additionalProperties: false },
);

export const Preference = Type.Object({ key: Type.String(), value: Type.Union([ColumnChoice, Type.Null()]), update_at: Type.Union([Timestamp, Type.Null()]) });
