/** True for a real calendar day. */
function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function dayOf(year: number, month: number, day: number): string | undefined {
  if (year < 1900 || year > 2200 || !isRealDate(year, month, day)) return undefined;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

const DATE_TOKENS: Record<string, { name: string; pattern: string }> = {
  YYYY: { name: 'Y', pattern: '(\\d{4})' },
  YY: { name: 'y', pattern: '(\\d{2})' },
  MM: { name: 'M', pattern: '(\\d{1,2})' },
  M: { name: 'M', pattern: '(\\d{1,2})' },
  DD: { name: 'D', pattern: '(\\d{1,2})' },
  D: { name: 'D', pattern: '(\\d{1,2})' },
};

/** Two-digit years: 00–69 are 2000–2069, 70–99 are 1970–1999 (as POSIX strptime reads %y). */
const fullYear = (year: number) => (year < 70 ? 2000 + year : 1900 + year);

/**
 * Reads a date written in `format` (tokens YYYY, YY, MM, M, DD, D; any other character is a separator that
 * must match loosely: `.`, `/`, `-`, space and `'` are interchangeable, as QIF writes `12/31'24`). Without a
 * format, ISO dates (a time after the day is ignored) and YYYYMMDD are read. Returns YYYY-MM-DD or undefined.
 */
export function parseDate(text: string, format?: string): string | undefined {
  const value = text.trim();
  if (!format) {
    const iso =
      /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(value) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(value);
    return iso ? dayOf(Number(iso[1]), Number(iso[2]), Number(iso[3])) : undefined;
  }
  const order: string[] = [];
  const pattern = format.replace(/YYYY|YY|MM|M|DD|D|[^YMD]/g, (token) => {
    const part = DATE_TOKENS[token];
    if (!part) return "[./\\- ']";
    order.push(part.name);
    return part.pattern;
  });
  const match = new RegExp(`^${pattern}(?:[T ].*)?$`).exec(value);
  if (!match) return undefined;
  const parts: Record<string, number> = {};
  order.forEach((name, index) => (parts[name] = Number(match[index + 1])));
  const year = parts.Y ?? fullYear(parts.y);
  return dayOf(year, parts.M, parts.D);
}
