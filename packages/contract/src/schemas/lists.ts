import { Type, type TSchema } from 'typebox';

/** page >= 1 and page_size 1..100 (default 10), as every paginated list takes them. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

/**
 * The page of a list whose count may be an estimate (count_exact false): a number, or `last`,
 * which counts the match exactly and answers its last page (the answer's `page` says which).
 */
export const EstimatedPageQuery = {
  ...PageQuery,
  page: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Literal('last')])),
};

export const FilterText = Type.Optional(Type.String({ maxLength: 200 }));
export const FilterDate = Type.Optional(Type.String({ format: 'date' }));
/** DRF's ordering: a response field, '-' for descending; each list checks it against its own choices. */
export const Ordering = Type.Optional(Type.String({ maxLength: 40 }));

export const Paginated = <T extends TSchema>(row: T) =>
  Type.Object({
    count: Type.Integer(),
    /** False when `count` is the planner's estimate of a broad match (read as "about"); Last (page=last) counts exactly. */
    count_exact: Type.Boolean(),
    /** The page answered (page=last: the last one's number). */
    page: Type.Integer(),
    total_pages: Type.Integer(),
    next: Type.Union([Type.String(), Type.Null()]),
    previous: Type.Union([Type.String(), Type.Null()]),
    results: Type.Array(row),
  });
