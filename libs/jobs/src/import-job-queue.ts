import { IMPORT_JOB_VERSION, importJob, importJobOptions, importRunJobId } from '@pfs/contracts';
import { JobQueueConfig, openJobQueue } from './job-queue';
import { type ExportRunJob, latestRunOf, SWEEP_RUN, type RunOptions, traceparentOf } from './run-jobs';

/** The imports queue as the API (producer) and the worker (sweeper) use it. */
export interface ImportJobQueue {
  /**
   * Queues a run of an import (`options.run`, 0: the API's), in `options.trace` (the queuing request's trace)
   * when given; ids only in the payload (no data, no secrets).
   */
  enqueue(userId: string, importId: string, options?: RunOptions): Promise<void>;
  /** The import's newest job BullMQ still holds (the sweeper's run, else the API's), with its state. */
  latestRun(importId: string): Promise<ExportRunJob | undefined>;
  close(): Promise<void>;
}

/** The run the worker's sweeper queues (the API's is run 0). */
export const IMPORT_SWEEP_RUN = SWEEP_RUN;

export function openImportJobQueue(config: JobQueueConfig): ImportJobQueue {
  const jobs = openJobQueue(importJob, config);
  return {
    async enqueue(userId, importId, { run = 0, trace } = {}) {
      await jobs.add(
        { version: IMPORT_JOB_VERSION, importId, userId, traceparent: traceparentOf(trace) },
        importJobOptions(importId, run),
      );
    },
    latestRun: (importId) => latestRunOf(jobs.queue, (run) => importRunJobId(importId, run)),
    close: () => jobs.close(),
  };
}
