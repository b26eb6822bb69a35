import type { ExportStatus } from '@pfs/contracts';
import type { ExportRecord } from '@pfs/resource-store';
import { deliverExport } from './deliver-export.use-case';
import { generateExport } from './generate-export.use-case';
import { moveExport } from './move-export';
import type { PipelineDependencies, WorkerRepositories } from './pipeline-dependencies';

export const TERMINAL_STATUSES: readonly ExportStatus[] = ['sent', 'error'];

/** One step from the export's stored status; each step stores its result before the next one starts. */
async function step(deps: PipelineDependencies, record: ExportRecord): Promise<ExportRecord | undefined> {
  switch (record.status) {
    case 'generating':
      return generateExport(deps, record);
    case 'generated':
      return moveExport(deps.repos, record, ['generated'], 'sending');
    case 'sending':
      return deliverExport(deps, record);
    default:
      return record;
  }
}

/**
 * Runs an export from wherever its stored status says it is to `sent`. A restarted worker resumes at
 * the stored step; when another process moved the export meanwhile, a step finds nothing to move and
 * the run re-reads the export instead of redoing the work.
 */
export async function runExport(
  deps: PipelineDependencies,
  userId: string,
  exportId: string,
): Promise<ExportRecord | undefined> {
  const user = deps.repos.store.read(userId);
  let record = await deps.repos.exports.findById(user, exportId);
  while (record && !TERMINAL_STATUSES.includes(record.status)) {
    const moved = await step(deps, record);
    record = moved ?? (await deps.repos.exports.findById(user, exportId));
    if (!moved && record && !TERMINAL_STATUSES.includes(record.status)) {
      deps.logger.info(
        { exportId, status: record.status },
        'export moved by another process; resuming from its state',
      );
    }
  }
  return record;
}

/** Marks the export failed with a reason the user can read, and tells the user (once). */
export async function failExport(
  deps: { repos: Pick<WorkerRepositories, 'store' | 'exports' | 'notifications'> },
  userId: string,
  exportId: string,
  reason: string,
): Promise<void> {
  const failed = await moveExport(
    deps.repos,
    { userId, id: exportId },
    ['generating', 'generated', 'sending'],
    'error',
    { errorReason: reason },
  );
  if (failed) {
    await deps.repos.notifications.createForExport(deps.repos.store.read(userId), exportId, {
      type: 'export',
      action: 'error',
      text: `Your export failed: ${reason}`,
    });
  }
}
