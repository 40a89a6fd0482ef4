// The month picker speaks YYYY-MM (input type="month"); the API takes YYYY-Mon (2025-Jan).
const abbreviations = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

export function toApiMonth(month: string): string | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? abbreviations[Number(match[2]) - 1] : undefined;
  return match && name ? `${match[1]}-${name}` : null;
}
