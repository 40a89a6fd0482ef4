// Why a write is refused: a checked input that names its bad field, or a unique index that found
// the same entry already there.

/** Why an entry is refused: names the field, as the API's other 400s do. */
export class RuleProblem extends Error {}

/** A unique index refused the write (node-postgres and PGlite both carry SQLSTATE 23505). */
export const isUniqueViolation = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23505') return true;
  return false;
};
