import { Type, type TSchema } from 'typebox';

/** page >= 1 and page_size 1..100 (default 10), as every paginated list takes them. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

export const FilterText = Type.Optional(Type.String({ maxLength: 200 }));
export const FilterDate = Type.Optional(Type.String({ format: 'date' }));
/** DRF's ordering: a response field, '-' for descending; each list checks it against its own choices. */
export const Ordering = Type.Optional(Type.String({ maxLength: 40 }));

export const Paginated = <T extends TSchema>(row: T) =>
  Type.Object({
    count: Type.Integer(),
    total_pages: Type.Integer(),
    next: Type.Union([Type.String(), Type.Null()]),
    previous: Type.Union([Type.String(), Type.Null()]),
    results: Type.Array(row),
  });
