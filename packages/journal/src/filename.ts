// The ATM ID and day a journal's file name gives, for journals that do not print them:
// `EJ_S1AB012345_20250204.txt`, `S1AB012345-04022025.jrn`, `EJ-S1AB012345-2025-02-04.log`, ...

const validDay = (y: number, m: number, d: number) => {
  if (y < 1990 || y > 2099 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
};
const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** A day written as yyyymmdd, ddmmyyyy, yyyy-mm-dd or dd-mm-yyyy (year first wins when both read). */
function dayOf(token: string): string | null {
  let m = /^(\d{4})(\d\d)(\d\d)$/.exec(token);
  if (m && validDay(+m[1]!, +m[2]!, +m[3]!)) return iso(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d\d)(\d\d)(\d{4})$/.exec(token);
  if (m && validDay(+m[3]!, +m[2]!, +m[1]!)) return iso(+m[3]!, +m[2]!, +m[1]!);
  return null;
}

export function fromFileName(fileName: string): { atmId: string | null; day: string | null } {
  // The name without its folders and extensions (journal.txt.gz, EJ.jrn).
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/(?:\.[A-Za-z0-9]{1,4})+$/, '');
  let day: string | null = null;
  const dashed = /(\d{4})-(\d\d)-(\d\d)|(\d\d)-(\d\d)-(\d{4})/.exec(base);
  if (dashed) {
    const [y, mo, d] = dashed[1] ? [+dashed[1], +dashed[2]!, +dashed[3]!] : [+dashed[6]!, +dashed[5]!, +dashed[4]!];
    if (validDay(y, mo, d)) day = iso(y, mo, d);
  }
  let atmId: string | null = null;
  for (const token of base.split(/[_\-.\s]+/)) {
    if (!day && /^\d{8}$/.test(token)) day = dayOf(token);
    // An ATM ID mixes letters and digits (S1AB012345, EFNJ000389010), unlike EJ or a date.
    else if (!atmId && /^[A-Za-z0-9]{6,16}$/.test(token) && /[A-Za-z]/.test(token) && /\d/.test(token)) atmId = token.toUpperCase();
  }
  return { atmId, day };
}
