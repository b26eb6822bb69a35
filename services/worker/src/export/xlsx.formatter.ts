import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import { type ExportTable, rowBatches } from './export-table';
import { TextChunks } from './text-chunks';
import { addSheetRows } from './xlsx-rows';

/** Bytes allowed to wait inside exceljs's zip before we stop feeding it rows. */
const MAX_PENDING = 4 * 1024 * 1024;

interface ExcelInternals {
  zip?: { readableLength?: number };
}
/** exceljs pipes into readable-stream PassThroughs, which predate `writableLength`. */
interface SheetInternals {
  stream: {
    pipes?: Array<{ writableLength?: number; _writableState?: { length?: number } }>;
    write(xml: Buffer): void;
  };
  /** The number of the next row to write, once every row before it is committed. */
  _rowZero: number;
}

/**
 * exceljs's `commit()` writes into its zip without honouring back-pressure (its StreamBuf ignores
 * `write()`'s return value), so a fast cursor would pile the whole sheet up in memory while deflate
 * catches up. After each batch of rows we wait until what is queued for the zip, and what the zip has not
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
 * each batch of rows is written out at once, so memory stays flat whatever the row count.
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
    // The rows go into the sheet's stream as XML, a cursor batch at a time, bypassing exceljs's Row and
    // Cell objects (its per-row model, XML builder and join were most of the export's CPU, docs/bench.md).
    const internals = sheet as unknown as SheetInternals;
    const xml = new TextChunks();
    for await (const rows of rowBatches(table)) {
      addSheetRows(xml, table.columns, rows, internals._rowZero);
      internals._rowZero += rows.length;
      for (const chunk of xml.take()) internals.stream.write(chunk);
      await waitForZip(workbook as unknown as ExcelInternals, internals);
    }
    sheet.commit();
  }
  await workbook.commit();
}
