import { IMPORT_JOB_VERSION, importJob, importJobOptions, importRunJobId } from '@pfs/contracts';
import { currentTrace, formatTraceparent } from '@pfs/logger';
import { Job } from 'bullmq';
import type { ExportRunJob } from './export-job-queue';
import { JobQueueConfig, openJobQueue } from './job-queue';

/** The imports queue as the API (producer) and the worker (sweeper) use it. */
export interface ImportJobQueue {
  /** Queues run `run` of an import (0: the API's); ids only in the payload. */
  enqueue(userId: string, importId: string, run?: number): Promise<void>;
  /** The import's newest job BullMQ still holds (the sweeper's run, else the API's), with its state. */
  latestRun(importId: string): Promise<ExportRunJob | undefined>;
  close(): Promise<void>;
}

/** The run the worker's sweeper queues (the API's is run 0). */
export const IMPORT_SWEEP_RUN = 1;

export function openImportJobQueue(config: JobQueueConfig): ImportJobQueue {
  const jobs = openJobQueue(importJob, config);
  return {
    async enqueue(userId, importId, run = 0) {
      const trace = currentTrace();
      await jobs.add(
        {
          version: IMPORT_JOB_VERSION,
          importId,
          userId,
          traceparent: trace ? formatTraceparent(trace) : undefined,
        },
        importJobOptions(importId, run),
      );
    },
    async latestRun(importId) {
      for (const run of [IMPORT_SWEEP_RUN, 0]) {
        const job = await Job.fromId(jobs.queue, importRunJobId(importId, run));
        if (job) return { run, state: await job.getState(), failedReason: job.failedReason };
      }
      return undefined;
    },
    close: () => jobs.close(),
  };
}
