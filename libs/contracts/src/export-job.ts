import { z } from 'zod';
import type { JobContract } from './job-contract';

/**
 * The export job: generates an export's files and delivers them. Produced by the API (POST /exports) and by
 * the worker's sweeper (a lost job queued again); consumed by the worker. The queue name and the v1 payload
 * are those of every earlier release, so exports in flight across an upgrade are picked up as they are.
 */
export const EXPORT_QUEUE_NAME = 'exports';
export const EXPORT_JOB_NAME = 'export.resources';
export const EXPORT_JOB_VERSION = 1;

export const ExportJobV1Schema = z.object({
  version: z.literal(1),
  exportId: z.string(),
  userId: z.string(),
  /** The W3C trace context of the request that queued it (not a secret): the worker's lines join its trace. */
  traceparent: z.string().max(512).optional(),
});

/** Every export payload version this release reads (a v2 joins here as a discriminated union on `version`). */
export const ExportJobPayloadSchema = ExportJobV1Schema;
export type ExportJobPayload = z.infer<typeof ExportJobPayloadSchema>;

export const exportJob: JobContract<ExportJobPayload> = {
  queue: EXPORT_QUEUE_NAME,
  name: EXPORT_JOB_NAME,
  schema: ExportJobPayloadSchema,
};

/** One job per export: the same id twice is ignored by BullMQ, so an export is never queued twice. */
export const exportJobId = (exportId: string) => `export-${exportId}`;

/**
 * The job id of a later run queued by the worker's sweeper: BullMQ ignores a job whose id it still keeps
 * (a failed job stays 7 days), so each re-run needs its own id. BullMQ refuses ':' in custom ids.
 */
export const exportRunJobId = (exportId: string, run: number) =>
  run === 0 ? exportJobId(exportId) : `${exportJobId(exportId)}-r${run}`;

/**
 * How an export is queued: one job per export (idempotent id), retried with exponential backoff
 * (5 s, 10 s, 20 s, …) on transient failures; the worker stops early on permanent ones (UnrecoverableError).
 */
export const EXPORT_JOB_ATTEMPTS = 5;
export const exportJobOptions = (exportId: string, run = 0) => ({
  jobId: exportRunJobId(exportId, run),
  attempts: EXPORT_JOB_ATTEMPTS,
  backoff: { type: 'exponential' as const, delay: 5_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});
