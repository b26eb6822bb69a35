import {
  EXPORT_CLEANUP_JOB_NAME,
  EXPORT_JOB_NAME,
  ExportJobPayload,
  PUSH_SEND_JOB_NAME,
  ExportJobPayloadSchema,
} from '@pfs/contracts';
import { Logger, parseTraceparent, runWithTrace, startSpan } from '@pfs/logger';
import { Job, UnrecoverableError } from 'bullmq';

export interface ExportJobHandler {
  (payload: ExportJobPayload, job: Job, token?: string): Promise<void>;
}

/** The scheduled cleanup of expired export files. */
export type CleanupJobHandler = () => Promise<number>;

/** The scheduled sending of due pushes; returns how many were settled. */
export type PushJobHandler = () => Promise<number>;

/**
 * The thin BullMQ processor: checks the job against the shared contract, then hands it to the export
 * pipeline. A job that breaks the contract can never succeed, so it fails without retries.
 */
export function createExportProcessor(
  handle: ExportJobHandler,
  logger: Logger,
  cleanup?: CleanupJobHandler,
  sendPushes?: PushJobHandler,
) {
  return async (job: Job, token?: string): Promise<void> => {
    if (job.name === PUSH_SEND_JOB_NAME && sendPushes) {
      const settled = await sendPushes();
      if (settled) logger.info({ settled }, 'pushes sent or settled');
      return;
    }
    if (job.name === EXPORT_CLEANUP_JOB_NAME && cleanup) {
      const cleaned = await cleanup();
      if (cleaned) logger.info({ cleaned }, 'expired exports cleaned');
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
