import type { ExportRecord } from '@pfs/resource-store';
import { storeExportFiles } from '../export/export-file';
import { planExportFiles } from '../export/plan-export-files';
import type { PipelineDependencies } from './pipeline-dependencies';
import { ExportFailure } from './export-failure';
import { moveExport } from './move-export';

/**
 * generating → generated: streams the export's files into storage under a key of its own (a retry
 * overwrites the same object), signs the download link, and records the file on the export.
 */
export async function generateExport(
  deps: PipelineDependencies,
  record: ExportRecord,
): Promise<ExportRecord | undefined> {
  const files = planExportFiles(deps.repos, deps.storage, record);
  if (!files.length)
    throw new ExportFailure('The export has nothing to produce: choose at least one resource and format.');
  const stored = await storeExportFiles(
    deps.storage,
    `exports/${record.userId}/${record.id}`,
    files,
    `export-${record.id}.zip`,
  );
  const link = await deps.storage.createDownloadLink(stored.key, {
    expiresInSeconds: deps.ttlSeconds,
    filename: stored.filename,
  });
  return moveExport(deps.repos, record, ['generating'], 'generated', {
    storageKey: stored.key,
    filename: stored.filename,
    filesize: stored.size,
    contentType: stored.contentType,
    downloadUrl: link.url,
    validUntil: link.expiresAt,
    expiresAt: link.expiresAt,
    generatedAt: new Date(),
    errorReason: null,
  });
}
