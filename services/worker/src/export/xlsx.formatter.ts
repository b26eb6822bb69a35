import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import { type CellValue, type ExportColumn, type ExportTable, rowBatches } from './export-table';

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

/** Bytes allowed to wait inside exceljs's zip before we stop feeding it rows. */
const MAX_PENDING = 4 * 1024 * 1024;
const ROWS_PER_CHECK = 500;

interface ExcelInternals {
  zip?: { readableLength?: number };
}
/** exceljs pipes into readable-stream PassThroughs, which predate `writableLength`. */
interface SheetInternals {
  stream?: { pipes?: Array<{ writableLength?: number; _writableState?: { length?: number } }> };
}

/**
 * exceljs's `commit()` writes into its zip without honouring back-pressure (its StreamBuf ignores
 * `write()`'s return value), so a fast cursor would pile the whole sheet up in memory while deflate
 * catches up. Every few hundred rows we wait until what is queued for the zip, and what the zip has not
 * yet handed to `out`, are back under a few MiB: memory stays flat whatever the row count.
 */
async function waitForZip(workbook: ExcelInternals, sheet: SheetInternals): Promise<void> {
  const pending = () =>
    (sheet.stream?.pipes ?? []).reduce(
      (sum, pipe) => sum + (pipe.writableLength ?? pipe._writableState?.length ?? 0),
      0,
    ) + (workbook.zip?.readableLength ?? 0);
  while (pending() > MAX_PENDING) await new Promise((resolve) => setTimeout(resolve, 1));
}

/**
 * Streams tables into one workbook, one worksheet per table, with exceljs's streaming writer:
 * each row is committed (written out) at once, so memory stays flat whatever the row count.
 */
export async function writeXlsx(tables: ExportTable[], out: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    // Styles cost a third of the time per row and the sheets need none.
    useStyles: false,
  });
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.title.slice(0, 31));
    sheet.columns = table.columns.map((column) => ({
      header: column.header,
      key: column.key,
      width: column.kind === 'text' ? 30 : 14,
    }));
    sheet.getRow(1).commit();
    let count = 0;
    for await (const rows of rowBatches(table)) {
      for (const row of rows) {
        sheet.addRow(table.columns.map((column) => xlsxCell(row[column.key], column))).commit();
        count += 1;
        if (count % ROWS_PER_CHECK === 0)
          await waitForZip(workbook as unknown as ExcelInternals, sheet as unknown as SheetInternals);
      }
    }
    sheet.commit();
  }
  await workbook.commit();
}
