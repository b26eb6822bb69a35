import { z } from 'zod';

/**
 * The export job contract shared by the API (producer) and the export worker (consumer).
 * Payloads carry ids only: the worker reads the export's definition from Postgres.
 */
export const EXPORT_QUEUE_NAME = 'exports';
export const EXPORT_JOB_NAME = 'export.resources';
export const EXPORT_JOB_VERSION = 1;

export const ExportJobPayloadSchema = z.object({
  version: z.literal(EXPORT_JOB_VERSION),
  exportId: z.string(),
  userId: z.string(),
});

export type ExportJobPayload = z.infer<typeof ExportJobPayloadSchema>;

/** One job per export: the same id twice is ignored by BullMQ, so an export is never queued twice. */
export const exportJobId = (exportId: string) => `export-${exportId}`;

/** BullMQ keys live under the deployment's Redis prefix. */
export const queuePrefix = (redisKeyPrefix: string) => `${redisKeyPrefix}bull`;
