import type { CellValue, ExportColumn, ExportRow } from './export-table';
import type { TextChunks } from './text-chunks';

/** Decimals become spreadsheet numbers only when a double holds them exactly; otherwise they stay text. */
export function xlsxCell(value: CellValue, column: ExportColumn): CellValue {
  if (value === null || value === undefined) return null;
  if (column.kind === 'decimal' || column.kind === 'integer') {
    const number = Number(value);
    return Number.isFinite(number) && String(number) === normaliseDecimal(String(value))
      ? number
      : String(value);
  }
  return value;
}

/** `-12.50` → `-12.5`, `3.000` → `3`, as JavaScript prints the same number. */
function normaliseDecimal(text: string): string {
  if (!text.includes('.')) return text.replace(/^(-?)0+(?=\d)/, '$1');
  return text.replace(/\.?0+$/, '').replace(/^(-?)0+(?=\d)/, '$1');
}

// Control characters are what these match: exceljs drops those XML cannot hold.
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/;
// eslint-disable-next-line no-control-regex
const XML_SPECIALS = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/g;
const ENTITIES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  "'": '&apos;',
  '"': '&quot;',
};

/** exceljs's xmlEncode: the five entities, and control characters XML cannot hold dropped. */
function xmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(XML_SPECIALS, (char) => ENTITIES[char] ?? '') : text;
}

/** `A`, `B`, … `Z`, `AA`: the spreadsheet's name of column `index` (from 0). */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * The `<row>` elements of `rows`, numbered from `firstRow`, exactly as exceljs 4.4's streaming writer renders
 * a row of these values (no styles, no shared strings): every column has a cell, so `spans` is always
 * `1:<columns>`; a null cell is left out, and a row of nulls is not written. A test compares the two.
 */
export function addSheetRows(
  out: TextChunks,
  columns: ExportColumn[],
  rows: readonly ExportRow[],
  firstRow: number,
): void {
  const names = columns.map((_, index) => columnName(index));
  const spans = `" spans="1:${columns.length}" x14ac:dyDescent="0.25">`;
  rows.forEach((row, offset) => {
    const number = firstRow + offset;
    let cells = '';
    columns.forEach((column, index) => {
      const value = xlsxCell(row[column.key], column);
      if (value === null || value === undefined) return;
      const ref = names[index] + number;
      if (typeof value === 'number') cells += `<c r="${ref}"><v>${value}</v></c>`;
      else if (typeof value === 'boolean') cells += `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
      else cells += `<c r="${ref}" t="str"><v>${xmlText(value)}</v></c>`;
    });
    if (cells) out.add(`<row r="${number}${spans}${cells}</row>`);
  });
}
