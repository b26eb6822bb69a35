import { EXPORT_JOB_VERSION, exportJob, exportJobOptions, exportRunJobId } from '@pfs/contracts';
import { JobQueueConfig, openJobQueue } from './job-queue';
import { type ExportRunJob, latestRunOf, type RunOptions, traceparentOf } from './run-jobs';

/** The exports queue as the API (producer) and the worker (sweeper, queue gauge) both use it. */
export interface ExportJobQueue {
  /**
   * Queues a run of an export (`options.run`, 0: the API's), in `options.trace` (the queuing request's trace)
   * when given; ids only in the payload (no data, no secrets).
   */
  enqueue(userId: string, exportId: string, options?: RunOptions): Promise<void>;
  /** The export's newest job BullMQ still holds (the sweeper's run, else the API's), with its state. */
  latestRun(exportId: string): Promise<ExportRunJob | undefined>;
  /** Jobs per state, for the queue depth gauge. */
  jobCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export function openExportJobQueue(config: JobQueueConfig): ExportJobQueue {
  const jobs = openJobQueue(exportJob, config);
  return {
    async enqueue(userId, exportId, { run = 0, trace } = {}) {
      await jobs.add(
        { version: EXPORT_JOB_VERSION, exportId, userId, traceparent: traceparentOf(trace) },
        exportJobOptions(exportId, run),
      );
    },
    latestRun: (exportId) => latestRunOf(jobs.queue, (run) => exportRunJobId(exportId, run)),
    jobCounts: () => jobs.queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
    close: () => jobs.close(),
  };
}
