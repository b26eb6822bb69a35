import { EXPORT_JOB_NAME, ExportJobPayload, ExportJobPayloadSchema } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { Job, UnrecoverableError } from 'bullmq';

export interface ExportJobHandler {
  (payload: ExportJobPayload, job: Job): Promise<void>;
}

/**
 * The thin BullMQ processor: checks the job against the shared contract, then hands it to the export
 * pipeline. A job that breaks the contract can never succeed, so it fails without retries.
 */
export function createExportProcessor(handle: ExportJobHandler, logger: Logger) {
  return async (job: Job): Promise<void> => {
    if (job.name !== EXPORT_JOB_NAME) throw new UnrecoverableError(`unknown job name ${job.name}`);
    const parsed = ExportJobPayloadSchema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid ${EXPORT_JOB_NAME} payload: ${parsed.error.message}`);
    logger.info({ jobId: job.id, exportId: parsed.data.exportId }, 'export job started');
    await handle(parsed.data, job);
    logger.info({ jobId: job.id, exportId: parsed.data.exportId }, 'export job finished');
  };
}
