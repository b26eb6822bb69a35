import { EXPORT_JOB_VERSION, exportJob, exportJobOptions, exportRunJobId } from '@pfs/contracts';
import { currentTrace, formatTraceparent } from '@pfs/logger';
import { Job } from 'bullmq';
import { JobQueueConfig, openJobQueue } from './job-queue';

/** The latest job of an export (the highest run that BullMQ still holds), with its state. */
export interface ExportRunJob {
  run: number;
  state: string;
  failedReason?: string;
}

/** The run the worker's sweeper queues: the API's job is run 0, so its id differs from a failed job BullMQ keeps. */
export const SWEEP_RUN = 1;

/** The exports queue as the API (producer) and the worker (sweeper, queue gauge) both use it. */
export interface ExportJobQueue {
  /** Queues run `run` of an export (0: the API's); ids only in the payload (no data, no secrets). */
  enqueue(userId: string, exportId: string, run?: number): Promise<void>;
  /** The export's newest job BullMQ still holds (the sweeper's run, else the API's), with its state. */
  latestRun(exportId: string): Promise<ExportRunJob | undefined>;
  /** Jobs per state, for the queue depth gauge. */
  jobCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** The current work's span is the job's parent (the worker's span, exported or not, is its child). */
function traceparentOfCurrentWork(): string | undefined {
  const trace = currentTrace();
  return trace ? formatTraceparent(trace) : undefined;
}

export function openExportJobQueue(config: JobQueueConfig): ExportJobQueue {
  const jobs = openJobQueue(exportJob, config);
  return {
    async enqueue(userId, exportId, run = 0) {
      await jobs.add(
        { version: EXPORT_JOB_VERSION, exportId, userId, traceparent: traceparentOfCurrentWork() },
        exportJobOptions(exportId, run),
      );
    },
    async latestRun(exportId) {
      for (const run of [SWEEP_RUN, 0]) {
        const job = await Job.fromId(jobs.queue, exportRunJobId(exportId, run));
        if (job) return { run, state: await job.getState(), failedReason: job.failedReason };
      }
      return undefined;
    },
    jobCounts: () => jobs.queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
    close: () => jobs.close(),
  };
}
