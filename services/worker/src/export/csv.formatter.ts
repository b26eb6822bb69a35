import { format } from '@fast-csv/format';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { coalesceChunks } from './coalesce-chunks';
import type { CellValue, ExportTable } from './export-table';

/**
 * Text that a spreadsheet would run as a formula (CSV injection, OWASP) is prefixed with a quote.
 * Only text columns are touched: a negative amount in a decimal column stays a number.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvCell(value: CellValue, kind: string): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return kind === 'text' ? neutraliseFormula(text) : text;
}

/** Streams one table as RFC 4180 CSV (comma, CRLF, header row, UTF-8 with BOM so Excel reads accents). */
export async function writeCsv(table: ExportTable, out: Writable): Promise<void> {
  const columns = table.columns;
  const rows = Readable.from(
    (async function* () {
      for await (const row of table.openRows())
        yield columns.map((column) => csvCell(row[column.key], column.kind));
    })(),
  );
  const csv = format({
    headers: columns.map((column) => column.header),
    rowDelimiter: '\r\n',
    writeBOM: true,
    alwaysWriteHeaders: true,
  });
  await pipeline(rows, csv, coalesceChunks(), out);
}
