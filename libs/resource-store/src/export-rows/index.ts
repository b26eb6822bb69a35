export { AdvisoryLocks } from './advisory-locks';
export { ExportSheetRepository } from './export-sheet.repository';
export { ExportStatementRepository } from './export-statement.repository';
export type { StatementAccount, StatementTransaction } from './export-statement.repository';
export type { EntryExportResource, ExportScope } from './export-scope';
export type { ExportCell, ExportRow, RowStream } from './row-cursor';
export { UserArchiveRepository } from './user-archive.repository';
export type { ArchivedImage, UserDataTable } from './user-archive.repository';
export { PRIVATE_USER_TABLES, USER_DATA_TABLES } from './user-data-tables';
