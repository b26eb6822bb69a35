import {
  EXPORT_JOB_NAME,
  ExportJobPayload,
  ExportJobPayloadSchema,
  LEGACY_EXPORT_QUEUE_JOB_NAMES,
} from '@pfs/contracts';
import { Logger, parseTraceparent, runWithTrace, startSpan } from '@pfs/logger';
import { Job, UnrecoverableError } from 'bullmq';

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
    if (job.name !== EXPORT_JOB_NAME) throw new UnrecoverableError(`unknown job name ${job.name}`);
    const parsed = ExportJobPayloadSchema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid ${EXPORT_JOB_NAME} payload: ${parsed.error.message}`);
    // The job's work (and its calls to storage) runs in the queuing request's trace.
    // With OTEL_EXPORTER_OTLP_ENDPOINT set, the job is an exported span, child of the queuing request's span.
    const span = startSpan(`${EXPORT_JOB_NAME} job`, 'consumer', parseTraceparent(parsed.data.traceparent));
    let failed = true;
    try {
      await runWithTrace(span.context, async () => {
        logger.info({ jobId: job.id, exportId: parsed.data.exportId }, 'export job started');
        await handle(parsed.data, job, token);
        logger.info({ jobId: job.id, exportId: parsed.data.exportId }, 'export job finished');
      });
      failed = false;
    } finally {
      span.end({ failed, attributes: { 'messaging.message.id': String(job.id) } });
    }
  };
}
