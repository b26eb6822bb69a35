import type { ExportCell, ExportRow, RowStream } from '@pfs/resource-store';

/** One cell as the formatters receive it: money and other numerics arrive as exact decimal strings. */
export type CellValue = ExportCell;
export type { ExportRow };

export interface ExportColumn {
  key: string;
  header: string;
  /** `decimal` cells are exact decimal strings (Postgres numeric); `date` cells are YYYY-MM-DD. */
  kind: 'text' | 'decimal' | 'integer' | 'date';
}

/**
 * A table of an export (expenses, incomes, budgets, …): its columns and a lazily opened row stream.
 * Rows are opened only when a formatter reaches the table, so one export holds one database cursor at a time.
 */
export interface ExportTable {
  /** File-safe name: `expenses`. */
  name: string;
  /** Human title: `Expenses`. */
  title: string;
  columns: ExportColumn[];
  /** A store cursor's rows come as a RowStream, whose `batches()` the CSV formatter reads. */
  openRows(): AsyncIterable<ExportRow>;
}

/** The rows of a table a batch at a time: a cursor's own batches, else (rows in memory, tests) one row each. */
export async function* rowBatches(table: ExportTable): AsyncGenerator<readonly ExportRow[]> {
  const rows = table.openRows() as AsyncIterable<ExportRow> & Partial<RowStream>;
  if (rows.batches) {
    yield* rows.batches();
    return;
  }
  for await (const row of rows) yield [row];
}

/** A table over rows already in memory (small tables such as summaries, and tests). */
export function tableFromRows(
  definition: Omit<ExportTable, 'openRows'>,
  rows: readonly ExportRow[],
): ExportTable {
  return {
    ...definition,
    async *openRows() {
      yield* rows;
    },
  };
}
