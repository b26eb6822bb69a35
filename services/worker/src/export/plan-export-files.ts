import type { ExportFormat, ExportResource } from '@pfs/contracts';
import type { ExportRecord } from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';
import type { WorkerRepositories } from '../use-cases/pipeline-dependencies';
import { writeAttachmentsArchive } from './attachments.archive';
import { CONTENT_TYPES } from './content-types';
import { writeCsv } from './csv.formatter';
import type { ExportFile } from './export-file';
import { tableFor } from './export-tables';
import { writeOfxStatement } from './ofx-statement';
import { writePdf } from './pdf.formatter';
import { writeUserDataArchive } from './user-data.archive';
import { writeXlsx } from './xlsx.formatter';

type ExportRepos = Pick<WorkerRepositories, 'exportSheets' | 'exportStatements' | 'userArchives'>;

/** The files one export produces, in order; each is generated only when it is written. */
export function planExportFiles(
  repos: ExportRepos,
  storage: ObjectStorage,
  record: ExportRecord,
): ExportFile[] {
  const scope = {
    userId: record.userId,
    from: record.from,
    to: record.to,
    filters: record.filters,
    walPosition: record.walPosition,
  };
  if (record.type === 'user_data') {
    return [
      {
        filename: `user-data-${record.id}.json`,
        contentType: CONTENT_TYPES.json,
        write: (out) => writeUserDataArchive(repos.userArchives, record.userId, out),
      },
    ];
  }
  if (record.type === 'attachments') {
    return [
      {
        filename: `attachments-${record.id}.zip`,
        contentType: CONTENT_TYPES.zip,
        write: (out) => writeAttachmentsArchive(repos.userArchives, storage, record.userId, out),
      },
    ];
  }
  const resources = record.resources as ExportResource[];
  const tables = () => resources.map((resource) => tableFor(repos.exportSheets, resource, scope));
  const title = `Export ${record.from ?? '…'} – ${record.to ?? '…'}`;
  const files: ExportFile[] = [];
  // `xls` is the reference's name for the workbook: asked with `xlsx` too, one workbook is written.
  const formats = [...new Set((record.formats as ExportFormat[]).map((f) => (f === 'xls' ? 'xlsx' : f)))];
  for (const format of formats) {
    if (format === 'csv') {
      for (const resource of resources) {
        files.push({
          filename: `${resource}-${record.id}.csv`,
          contentType: CONTENT_TYPES.csv,
          write: (out) => writeCsv(tableFor(repos.exportSheets, resource, scope), out),
        });
      }
    } else if (format === 'xlsx') {
      files.push({
        filename: `export-${record.id}.xlsx`,
        contentType: CONTENT_TYPES.xlsx,
        write: (out) => writeXlsx(tables(), out),
      });
    } else if (format === 'pdf') {
      files.push({
        filename: `export-${record.id}.pdf`,
        contentType: CONTENT_TYPES.pdf,
        write: (out) => writePdf(tables(), out, { title }),
      });
    } else if (format === 'ofx') {
      files.push({
        filename: `export-${record.id}.ofx`,
        contentType: CONTENT_TYPES.ofx,
        write: (out) => writeOfxStatement(repos.exportStatements, scope, resources, out),
      });
    }
  }
  return files;
}
