/** A character that makes @fast-csv/format quote a field: its pattern `[,\r\n|\r|\n]` also holds `|`. */
const QUOTED = /[,\r\n|]/;
const SPECIAL = /[",\r\n|\0]/;

/**
 * One CSV field exactly as @fast-csv/format (v4, default options) writes it, so exported bytes did not change
 * when the formatter moved here: NUL characters dropped; a field with a double quote is quoted with its quotes
 * doubled; one with a comma, CR, LF or `|` is quoted; anything else is written as it is.
 */
export function csvField(text: string): string {
  if (!SPECIAL.test(text)) return text;
  const clean = text.includes('\0') ? text.replace(/\0/g, '') : text;
  if (clean.includes('"')) return `"${clean.replace(/"/g, '""')}"`;
  return QUOTED.test(clean) ? `"${clean}"` : clean;
}
