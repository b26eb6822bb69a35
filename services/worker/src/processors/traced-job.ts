import type { JobContract } from '@pfs/contracts';
import { Logger, parseTraceparent, runWithTrace, startSpan } from '@pfs/logger';
import { Job, UnrecoverableError } from 'bullmq';

/**
 * The envelope of a job queued by a request (export, import): the job is checked against its contract first
 * (a job that breaks it can never succeed, so it fails without retries); then `work` runs in the queuing
 * request's trace, as a consumer span (exported with OTEL_EXPORTER_OTLP_ENDPOINT, a child of the request's
 * span), between a started and a finished log line naming the job and `subject` of the payload.
 */
export async function runTracedJob<Payload extends { version: number; traceparent?: string }>(
  job: Job,
  kind: {
    contract: JobContract<Payload>;
    logger: Logger;
    /** What the log lines call the job ('export job started'). */
    what: string;
    /** The payload's ids the log lines carry. */
    subject: (payload: Payload) => Record<string, string>;
  },
  work: (payload: Payload) => Promise<void>,
): Promise<void> {
  const { contract, logger, what, subject } = kind;
  if (job.name !== contract.name) throw new UnrecoverableError(`unknown job name ${job.name}`);
  const parsed = contract.schema.safeParse(job.data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid ${contract.name} payload: ${parsed.error.message}`);
  }
  const payload = parsed.data;
  const span = startSpan(`${contract.name} job`, 'consumer', parseTraceparent(payload.traceparent));
  let failed = true;
  try {
    await runWithTrace(span.context, async () => {
      logger.info({ jobId: job.id, ...subject(payload) }, `${what} job started`);
      await work(payload);
      logger.info({ jobId: job.id, ...subject(payload) }, `${what} job finished`);
    });
    failed = false;
  } finally {
    span.end({ failed, attributes: { 'messaging.message.id': String(job.id) } });
  }
}
