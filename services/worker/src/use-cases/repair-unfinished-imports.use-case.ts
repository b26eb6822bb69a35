import { type ImportJobQueue, IMPORT_SWEEP_RUN } from '@pfs/jobs';
import type { AdvisoryLocks } from '@pfs/resource-store';
import type { ImportDependencies } from './import-dependencies';
import { failImport } from './run-import.use-case';
import { IMPORT_GAVE_UP_REASON } from '../processors/import.processor';

/** An unfinished import untouched this long is looked at (a live job moves it at least once a batch). */
export const UNFINISHED_IMPORT_AFTER_MS = 15 * 60 * 1000;
const SWEEP_LOCK_KEY = 7_302_512;
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'];

/**
 * Part of the scheduled maintenance, as for exports: no import stays unfinished without a live job. A lost
 * job is queued again (it resumes from the stored status); a job that failed for good, or completed while
 * its import is unfinished (its worker died in between), ends the import in error.
 */
export async function repairUnfinishedImports(
  deps: ImportDependencies & { locks: AdvisoryLocks },
  jobs: Pick<ImportJobQueue, 'latestRun' | 'enqueue'>,
  now: Date = new Date(),
): Promise<{ requeued: number; failed: number } | undefined> {
  return deps.locks.runIfFree(SWEEP_LOCK_KEY, async () => {
    const counts = { requeued: 0, failed: 0 };
    const unfinished = await deps.repos.imports.findUnfinished(
      new Date(now.getTime() - UNFINISHED_IMPORT_AFTER_MS),
      500,
    );
    for (const { userId, id } of unfinished) {
      const latest = await jobs.latestRun(id);
      if (latest && LIVE_STATES.includes(latest.state)) continue;
      if (!latest) {
        await jobs.enqueue(userId, id, IMPORT_SWEEP_RUN);
        counts.requeued += 1;
        continue;
      }
      const record = await deps.repos.imports.findById(deps.repos.store.read(userId), id);
      if (record) await failImport(deps, record, { reason: IMPORT_GAVE_UP_REASON });
      counts.failed += 1;
    }
    return counts;
  });
}
