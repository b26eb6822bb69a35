import { type ImportJobQueue, IMPORT_SWEEP_RUN } from '@pfs/jobs';
import type { AdvisoryLocks } from '@pfs/resource-store';
import type { ImportDependencies } from './import-dependencies';
import { failImport } from './run-import.use-case';
import { type RepairCounts, sweepUnfinished } from './sweep-unfinished';
import { IMPORT_GAVE_UP_REASON } from '../processors/import.processor';

/** An unfinished import untouched this long is looked at (a live job moves it at least once a batch). */
export const UNFINISHED_IMPORT_AFTER_MS = 15 * 60 * 1000;
const SWEEP_LOCK_KEY = 7_302_512;

/**
 * Part of the scheduled maintenance, as for exports: no import stays unfinished without a live job. A lost
 * job is queued again (it resumes from the stored status); a job that failed for good, or completed while
 * its import is unfinished (its worker died in between), ends the import in error.
 */
export async function repairUnfinishedImports(
  deps: ImportDependencies & { locks: AdvisoryLocks },
  jobs: Pick<ImportJobQueue, 'latestRun' | 'enqueue'>,
  now: Date = new Date(),
): Promise<RepairCounts | undefined> {
  return deps.locks.runIfFree(SWEEP_LOCK_KEY, async () => {
    const unfinished = await deps.repos.imports.findUnfinished(
      new Date(now.getTime() - UNFINISHED_IMPORT_AFTER_MS),
      500,
    );
    return sweepUnfinished(unfinished, jobs, IMPORT_SWEEP_RUN, async (userId, id) => {
      const record = await deps.repos.imports.findById(deps.repos.store.read(userId), id);
      if (record) await failImport(deps, record, { reason: IMPORT_GAVE_UP_REASON });
    });
  });
}
