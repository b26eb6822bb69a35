import { ExportJobQueue, SWEEP_RUN } from '@pfs/jobs';
import type { WorkerRepositories } from './pipeline-dependencies';
import { failExport } from './run-export.use-case';

/**
 * An unfinished export untouched this long is looked at: a job just being added (the API commits the export,
 * then queues it) is never raced, and a live job is recognised by its state anyway.
 */
export const UNFINISHED_AFTER_MS = 15 * 60 * 1000;

/** One sweeper at a time across workers (an advisory lock: a busy sweeper makes the others skip). */
const SWEEP_LOCK_KEY = 7_302_511;

/** BullMQ states of a job that will still run its processor. */
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'];

/** What the user reads when an export's job ended without its processor finishing the export. */
export const INTERRUPTED_REASON =
  'The export was interrupted several times (its worker stopped); please try again.';

/** What the sweep needs of the exports queue (@pfs/jobs' ExportJobQueue). */
export type ExportJobs = Pick<ExportJobQueue, 'latestRun' | 'enqueue'>;

export interface RepairCounts {
  requeued: number;
  failed: number;
}

/** The user's reason for a job BullMQ failed: interrupted (stalled) or the processor's own last failure. */
export function reasonOfFailedJob(message: string): string {
  return /stalled/i.test(message)
    ? INTERRUPTED_REASON
    : 'The export could not be generated; please try again later.';
}

/**
 * Part of the scheduled maintenance: no export stays unfinished without a live job. For each export left
 * generating, generated or sending past the grace period:
 * - its job is live (waiting, active, delayed…): left alone;
 * - its job is gone (Redis refused it or lost its data): queued again under a new run id;
 * - its job failed, or completed while the export is unfinished (the worker died before the `failed`
 *   handler ran): the export ends in `error` with a reason and the user is notified, as that handler does.
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
  const counts: RepairCounts = { requeued: 0, failed: 0 };
  const unfinished = await deps.repos.exports.findUnfinished(
    new Date(now.getTime() - UNFINISHED_AFTER_MS),
    500,
  );
  for (const { userId, id } of unfinished) {
    const latest = await jobs.latestRun(id);
    if (latest && LIVE_STATES.includes(latest.state)) continue;
    if (!latest) {
      await jobs.enqueue(userId, id, SWEEP_RUN);
      counts.requeued += 1;
      continue;
    }
    const reason =
      latest.state === 'failed' ? reasonOfFailedJob(latest.failedReason ?? '') : INTERRUPTED_REASON;
    await failExport(deps, userId, id, reason);
    counts.failed += 1;
  }
  return counts;
}
