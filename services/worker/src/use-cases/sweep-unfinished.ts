import type { ExportRunJob, RunOptions } from '@pfs/jobs';

/** BullMQ states of a job that will still run its processor. */
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'];

export interface RepairCounts {
  requeued: number;
  failed: number;
}

/** What a sweep needs of a queue whose jobs are numbered runs of one export or import. */
export interface RunJobs {
  latestRun(id: string): Promise<ExportRunJob | undefined>;
  enqueue(userId: string, id: string, options?: RunOptions): Promise<void>;
}

/**
 * The sweep shared by exports and imports, for the work found unfinished past its grace period: a live job
 * (waiting, active, delayed…) is left alone; a lost job (Redis refused it or lost its data) is queued again
 * under the sweeper's run; a job that failed, or completed while its work is unfinished (the worker died in
 * between), ends that work through `fail`.
 */
export async function sweepUnfinished(
  unfinished: Array<{ userId: string; id: string }>,
  jobs: RunJobs,
  sweepRun: number,
  fail: (userId: string, id: string, latest: ExportRunJob) => Promise<void>,
): Promise<RepairCounts> {
  const counts: RepairCounts = { requeued: 0, failed: 0 };
  for (const { userId, id } of unfinished) {
    const latest = await jobs.latestRun(id);
    if (latest && LIVE_STATES.includes(latest.state)) continue;
    if (!latest) {
      await jobs.enqueue(userId, id, { run: sweepRun });
      counts.requeued += 1;
      continue;
    }
    await fail(userId, id, latest);
    counts.failed += 1;
  }
  return counts;
}
