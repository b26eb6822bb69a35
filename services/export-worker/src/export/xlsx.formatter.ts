import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import type { CellValue, ExportColumn, ExportTable } from './export-table';

/** Decimals become spreadsheet numbers only when a double holds them exactly; otherwise they stay text. */
function xlsxCell(value: CellValue, column: ExportColumn): CellValue {
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

/**
 * Streams tables into one workbook, one worksheet per table, with exceljs's streaming writer:
 * each row is committed (written out) at once, so memory stays flat whatever the row count.
 */
export async function writeXlsx(tables: ExportTable[], out: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: true,
  });
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.title.slice(0, 31));
    sheet.columns = table.columns.map((column) => ({
      header: column.header,
      key: column.key,
      width: column.kind === 'text' ? 30 : 14,
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const row of table.openRows()) {
      sheet.addRow(table.columns.map((column) => xlsxCell(row[column.key], column))).commit();
    }
    sheet.commit();
  }
  await workbook.commit();
}
