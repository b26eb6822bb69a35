import { ExportJobPayload, exportJob, LEGACY_EXPORT_QUEUE_JOB_NAMES } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import type { Job } from 'bullmq';
import { runTracedJob } from './traced-job';

export interface ExportJobHandler {
  (payload: ExportJobPayload, job: Job, token?: string): Promise<void>;
}

/**
 * The thin BullMQ processor of the exports queue: checks the job against the shared contract, then hands it
 * to the export pipeline. A job that breaks the contract can never succeed, so it fails without retries.
 */
export function createExportProcessor(handle: ExportJobHandler, logger: Logger) {
  return async (job: Job, token?: string): Promise<void> => {
    if (LEGACY_EXPORT_QUEUE_JOB_NAMES.includes(job.name)) {
      // Left on the exports queue by an earlier release's scheduler: its work now runs on its own queue.
      logger.info({ jobId: job.id, name: job.name }, 'recurring job of an earlier release skipped');
      return;
    }
    await runTracedJob(
      job,
      { contract: exportJob, logger, what: 'export', subject: ({ exportId }) => ({ exportId }) },
      // The job's work (and its calls to storage) runs in the queuing request's trace.
      (payload) => handle(payload, job, token),
    );
  };
}
