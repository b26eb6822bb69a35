import type { ExportResource } from '@pfs/contracts';
import type { EntryExportResource, ExportScope, ExportSheetRepository } from '@pfs/resource-store';
import { budgetsTable } from './budgets-table';
import type { ExportColumn, ExportTable } from './export-table';

const ENTRY_COLUMNS: ExportColumn[] = [
  { key: 'date', header: 'Date', kind: 'date' },
  { key: 'account', header: 'Account', kind: 'text' },
  { key: 'category', header: 'Category', kind: 'text' },
  { key: 'tags', header: 'Tags', kind: 'text' },
  { key: 'amount', header: 'Amount', kind: 'decimal' },
  { key: 'currency', header: 'Currency', kind: 'text' },
  { key: 'description', header: 'Description', kind: 'text' },
  { key: 'location', header: 'Location', kind: 'text' },
  { key: 'id', header: 'Entry id', kind: 'text' },
];

const ENTRY_TITLES: Record<EntryExportResource, string> = {
  expenses: 'Expenses',
  incomes: 'Incomes',
  transfers: 'Transfers',
};

function entriesTable(
  sheets: ExportSheetRepository,
  resource: EntryExportResource,
  scope: ExportScope,
): ExportTable {
  return {
    name: resource,
    title: ENTRY_TITLES[resource],
    columns: ENTRY_COLUMNS,
    openRows: () => sheets.entries(resource, scope),
  };
}

/** Per currency, the expenses (a magnitude) and incomes with their counts, each side with its own filters. */
function summaryTable(sheets: ExportSheetRepository, scope: ExportScope): ExportTable {
  return {
    name: 'summary',
    title: 'Summary',
    columns: [
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'expenses', header: 'Expenses', kind: 'decimal' },
      { key: 'expense_count', header: 'Expense count', kind: 'integer' },
      { key: 'incomes', header: 'Incomes', kind: 'decimal' },
      { key: 'income_count', header: 'Income count', kind: 'integer' },
    ],
    openRows: () => sheets.summary(scope),
  };
}

function balancesTable(sheets: ExportSheetRepository, scope: ExportScope): ExportTable {
  return {
    name: 'balances',
    title: 'Balances',
    columns: [
      { key: 'account', header: 'Account', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'balance', header: 'Balance', kind: 'decimal' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'id', header: 'Account id', kind: 'text' },
    ],
    openRows: () => sheets.balances(scope),
  };
}

/** The images attached to the export's entries: one row per entry and image. */
function attachmentsTable(sheets: ExportSheetRepository, scope: ExportScope): ExportTable {
  return {
    name: 'attachments',
    title: 'Attachments',
    columns: [
      { key: 'date', header: 'Date', kind: 'date' },
      { key: 'entry', header: 'Entry id', kind: 'text' },
      { key: 'description', header: 'Description', kind: 'text' },
      { key: 'filename', header: 'File', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'image', header: 'Image id', kind: 'text' },
    ],
    openRows: () => sheets.attachments(scope),
  };
}

/** The table of one export resource; its rows are read only when a formatter opens them. */
export function tableFor(
  sheets: ExportSheetRepository,
  resource: ExportResource,
  scope: ExportScope,
): ExportTable {
  switch (resource) {
    case 'expenses':
    case 'incomes':
    case 'transfers':
      return entriesTable(sheets, resource, scope);
    case 'summary':
      return summaryTable(sheets, scope);
    case 'balances':
      return balancesTable(sheets, scope);
    case 'budgets':
      return budgetsTable(sheets, scope);
    case 'attachments':
      return attachmentsTable(sheets, scope);
  }
}
