import type { ExportCell, ExportRow } from '@pfs/resource-store';

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
  openRows(): AsyncIterable<ExportRow>;
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
