// DRF's `ordering` query parameter: a field of the response, '-' for descending. Each list names
// the orders its indexes serve; anything else is refused with the choices, never sorted by a scan.
type Ordering<Field extends string> = { field: Field; descending: boolean };

/** The ordering asked for (or the list's default), or a 400 detail naming what was refused. */
export function parseOrdering<Field extends string>(
  value: string | undefined,
  allowed: readonly `${'' | '-'}${Field}`[],
  fallback: `${'' | '-'}${Field}`,
): Ordering<Field> | { detail: string } {
  const asked = value?.trim() || fallback;
  if (!(allowed as readonly string[]).includes(asked)) {
    return { detail: `query 'ordering': cannot order by '${asked}'; one of ${allowed.join(', ')}.` };
  }
  const descending = asked.startsWith('-');
  return { field: (descending ? asked.slice(1) : asked) as Field, descending };
}
