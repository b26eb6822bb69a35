import type { ExportScope, ExportSheetRepository } from '@pfs/resource-store';
import type { ExportTable } from './export-table';

/**
 * The `budgets` sheet: the user's live budgets with an iteration in the export period, in display order.
 * One row per budget with its definition; iteration figures (amount, rollover) are computed by the API at
 * read and are not repeated here.
 */
export function budgetsTable(sheets: ExportSheetRepository, scope: ExportScope): ExportTable {
  return {
    name: 'budgets',
    title: 'Budgets',
    columns: [
      { key: 'name', header: 'Budget', kind: 'text' },
      { key: 'limit', header: 'Limit', kind: 'decimal' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'delta', header: 'Delta', kind: 'decimal' },
      { key: 'percent', header: 'Percent', kind: 'decimal' },
      { key: 'frequency', header: 'Frequency', kind: 'text' },
      { key: 'interval', header: 'Interval', kind: 'integer' },
      { key: 'start', header: 'Start', kind: 'date' },
      { key: 'end', header: 'End', kind: 'date' },
      { key: 'rollover', header: 'Rollover', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'id', header: 'Budget id', kind: 'text' },
    ],
    openRows: () => sheets.budgets(scope),
  };
}
