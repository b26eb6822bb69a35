/** pg reads `date` columns as local-midnight Dates; the calendar day is what we stored. */
export function toDateString(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, 10);
  const date = value as Date;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Exact decimal text of a numeric column without trailing zeros (`12.500000000` → `12.5`). */
export function toAmountText(value: unknown): string {
  const text = String(value);
  if (!text.includes('.')) return text;
  // Trimmed by hand, not with two regular expressions: three amounts an entry, 600 a page of 200 (issue 13).
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end -= 1; // '0'
  if (text.charCodeAt(end - 1) === 46) end -= 1; // '.'
  const trimmed = end === text.length ? text : text.slice(0, end);
  return trimmed === '-0' ? '0' : trimmed;
}

export function toOptionalAmount(value: unknown): string | null {
  return value === null || value === undefined ? null : toAmountText(value);
}
