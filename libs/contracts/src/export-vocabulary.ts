/** The export vocabulary shared by the API (validation) and the worker (generation); docs/exports.md. */
export const EXPORT_TYPES = ['export', 'attachments', 'user_data'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** generating → generated → sending → sent; any step may end in error (with a reason the user can read). */
export const EXPORT_STATUSES = ['sending', 'sent', 'error', 'generating', 'generated'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_RESOURCES = [
  'expenses',
  'incomes',
  'transfers',
  'budgets',
  'summary',
  'balances',
  'attachments',
] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];

/**
 * `xls` is the reference API's name for the spreadsheet: it produces the same `.xlsx` workbook as `xlsx`.
 * `ofx` is an OFX 2.2 bank statement per account, for importing into other finance software.
 */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'xls', 'pdf', 'ofx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Per-resource filters: categories and tags, each with its `!` exclusion twin. */
export interface ExportResourceFilters {
  categories?: string[];
  '!categories'?: string[];
  tags?: string[];
  '!tags'?: string[];
}

/** The stored `filters` object of an export, in the spec's shape. */
export interface ExportFilters {
  accounts?: string[];
  '!accounts'?: string[];
  locations?: string[];
  '!locations'?: string[];
  expenses?: ExportResourceFilters;
  incomes?: ExportResourceFilters;
}

/** Resources whose filters may carry categories and tags. */
export const FILTERABLE_RESOURCES = ['expenses', 'incomes'] as const;
