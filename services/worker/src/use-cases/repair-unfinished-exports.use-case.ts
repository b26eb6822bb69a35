import { ExportJobQueue, SWEEP_RUN } from '@pfs/jobs';
import type { WorkerRepositories } from './pipeline-dependencies';
import { failExport } from './run-export.use-case';
import { type RepairCounts, sweepUnfinished } from './sweep-unfinished';

/**
 * An unfinished export untouched this long is looked at: a job just being added (the API commits the export,
 * then queues it) is never raced, and a live job is recognised by its state anyway.
 */
export const UNFINISHED_AFTER_MS = 15 * 60 * 1000;

/** One sweeper at a time across workers (an advisory lock: a busy sweeper makes the others skip). */
const SWEEP_LOCK_KEY = 7_302_511;

/** What the user reads when an export's job ended without its processor finishing the export. */
export const INTERRUPTED_REASON =
  'The export was interrupted several times (its worker stopped); please try again.';

/** What the sweep needs of the exports queue (@pfs/jobs' ExportJobQueue). */
export type ExportJobs = Pick<ExportJobQueue, 'latestRun' | 'enqueue'>;

/** The user's reason for a job BullMQ failed: interrupted (stalled) or the processor's own last failure. */
export function reasonOfFailedJob(message: string): string {
  return /stalled/i.test(message)
    ? INTERRUPTED_REASON
    : 'The export could not be generated; please try again later.';
}

/**
 * Part of the scheduled maintenance: no export stays unfinished without a live job. Each export left
 * generating, generated or sending past the grace period is swept (`sweepUnfinished`): a live job is left
 * alone, a lost one queued again under a new run id; when its job failed, or completed while the export is
 * unfinished (the worker died before the `failed` handler ran), the export ends in `error` with a reason and
 * the user is notified, as that handler does.
 */
export async function repairUnfinishedExports(
  deps: { repos: Pick<WorkerRepositories, 'store' | 'exports' | 'locks' | 'notifications'> },
  jobs: ExportJobs,
  now: Date = new Date(),
): Promise<RepairCounts | undefined> {
  return deps.repos.locks.runIfFree(SWEEP_LOCK_KEY, () => repairAll(deps, jobs, now));
}

async function repairAll(
  deps: Parameters<typeof repairUnfinishedExports>[0],
  jobs: ExportJobs,
  now: Date,
): Promise<RepairCounts> {
  const unfinished = await deps.repos.exports.findUnfinished(
    new Date(now.getTime() - UNFINISHED_AFTER_MS),
    500,
  );
  return sweepUnfinished(unfinished, jobs, SWEEP_RUN, async (userId, id, latest) => {
    const reason =
      latest.state === 'failed' ? reasonOfFailedJob(latest.failedReason ?? '') : INTERRUPTED_REASON;
    await failExport(deps, userId, id, reason);
  });
}
