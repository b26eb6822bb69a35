import type { ExportStatus } from '@pfs/contracts';
import type { ExportProgress, ExportRecord } from '@pfs/resource-store';
import type { WorkerRepositories } from './pipeline-dependencies';

/**
 * Moves an export from one of `from` to `to` in a change of the user's own (one change sequence, so syncing
 * clients see the move). Undefined when another process moved it first (ExportRepository.advance).
 */
export function moveExport(
  repos: Pick<WorkerRepositories, 'store' | 'exports'>,
  record: { userId: string; id: string },
  from: readonly ExportStatus[],
  to: ExportStatus,
  progress: ExportProgress = {},
): Promise<ExportRecord | undefined> {
  return repos.store.change(record.userId, (change) =>
    repos.exports.advance(change, record.id, from, to, progress),
  );
}
