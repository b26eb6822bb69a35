import { DelayedError, Job } from 'bullmq';
import type { ExportJobPayload } from '@pfs/contracts';
import { ExportFailure, userReasonOf } from '../use-cases/export-failure';
import type { PipelineDependencies } from '../use-cases/pipeline-dependencies';
import { INTERRUPTED_REASON } from '../use-cases/repair-unfinished-exports.use-case';
import { failExport, runExport, TERMINAL_STATUSES } from '../use-cases/run-export.use-case';
import type { ExportJobHandler } from './export-resources.processor';
import { exportJobDuration } from '../worker-metrics';

/** A user over their concurrency limit waits this long before the job is tried again (no attempt used). */
const BUSY_USER_DELAY_MS = 1_000;

/** True when BullMQ will not try the job again after this error. */
function isLastAttempt(job: Job, error: unknown): boolean {
  return error instanceof ExportFailure || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * The export job: takes one of the user's concurrency slots (or waits its turn), runs the export from
 * its stored state, and on the last failed attempt stores `error` with a reason the user can read.
 */
export function handleExportJob(deps: PipelineDependencies): ExportJobHandler {
  return async (payload: ExportJobPayload, job: Job, token?: string) => {
    const { userId, exportId } = payload;
    const record = await deps.repos.exports.findById(deps.repos.store.read(userId), exportId);
    // Deleted, another user's, or already finished: nothing to do (a duplicate delivery of the job).
    if (!record || TERMINAL_STATUSES.includes(record.status)) return;
    if (!(await deps.slots.acquire(userId, exportId))) {
      await job.moveToDelayed(Date.now() + BUSY_USER_DELAY_MS, token);
      throw new DelayedError();
    }
    const renewal = setInterval(
      () => void deps.slots.renew(userId, exportId).catch(() => undefined),
      deps.slots.leaseMs / 3,
    );
    const timer = exportJobDuration.startTimer();
    try {
      await deps.repos.exports.countAttempt(deps.repos.store.read(userId), exportId);
      await runExport(deps, userId, exportId);
      timer({ state: 'completed' });
    } catch (error) {
      deps.logger.warn({ err: error, exportId, attempt: job.attemptsMade + 1 }, 'export attempt failed');
      const last = isLastAttempt(job, error);
      timer({ state: last ? 'failed' : 'retried' });
      if (last) await failExport(deps, userId, exportId, userReasonOf(error, job.attemptsMade + 1));
      throw error;
    } finally {
      clearInterval(renewal);
      await deps.slots.release(userId, exportId);
    }
  };
}

/**
 * Ends the export of a job that failed for good (the `failed` event): covers the jobs BullMQ fails without
 * running the processor, after their workers died mid-export too often. Harmless when the processor already
 * stored `error` (failExport moves only unfinished exports).
 */
export function endExportOfFailedJob(deps: PipelineDependencies) {
  return async (payload: ExportJobPayload, error: Error): Promise<void> => {
    const reason = /stalled/i.test(error.message) ? INTERRUPTED_REASON : userReasonOf(error, 1);
    await failExport(deps, payload.userId, payload.exportId, reason);
  };
}
