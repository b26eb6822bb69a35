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
  /** The W3C trace context of the request that queued it (not a secret): the worker's lines join its trace. */
  traceparent: z.string().max(512).optional(),
});

export type ExportJobPayload = z.infer<typeof ExportJobPayloadSchema>;

/** One job per export: the same id twice is ignored by BullMQ, so an export is never queued twice. */
export const exportJobId = (exportId: string) => `export-${exportId}`;

/**
 * The job id of a later run queued by the worker's sweeper: BullMQ ignores a job whose id it still keeps
 * (a failed job stays 7 days), so each re-run needs its own id. BullMQ refuses ':' in custom ids.
 */
export const exportRunJobId = (exportId: string, run: number) =>
  run === 0 ? exportJobId(exportId) : `${exportJobId(exportId)}-r${run}`;

/** BullMQ keys live under the deployment's Redis prefix. */
export const queuePrefix = (redisKeyPrefix: string) => `${redisKeyPrefix}bull`;

/** The export vocabulary shared by the API (validation) and the worker (generation); docs/exports.md. */
export const EXPORT_TYPES = ['export', 'attachments', 'user_data'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** generating → generated → sending → sent; any step may end in error (with a reason the user can read). */
export const EXPORT_STATUSES = ['sending', 'sent', 'error', 'generating', 'generated'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_RESOURCES = [
  'expenses',
  'incomes',
  'transfers',
  'budgets',
  'summary',
  'balances',
  'attachments',
] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];

/**
 * `xls` is the reference API's name for the spreadsheet: it produces the same `.xlsx` workbook as `xlsx`.
 * `ofx` is an OFX 2.2 bank statement per account, for importing into other finance software.
 */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'xls', 'pdf', 'ofx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Per-resource filters: categories and tags, each with its `!` exclusion twin. */
export interface ExportResourceFilters {
  categories?: string[];
  '!categories'?: string[];
  tags?: string[];
  '!tags'?: string[];
}

/** The stored `filters` object of an export, in the spec's shape. */
export interface ExportFilters {
  accounts?: string[];
  '!accounts'?: string[];
  locations?: string[];
  '!locations'?: string[];
  expenses?: ExportResourceFilters;
  incomes?: ExportResourceFilters;
}

/** Resources whose filters may carry categories and tags. */
export const FILTERABLE_RESOURCES = ['expenses', 'incomes'] as const;

/** The repeatable job that removes expired export files. */
export const EXPORT_CLEANUP_JOB_NAME = 'export.cleanup';
export const EXPORT_CLEANUP_JOB_ID = 'export-cleanup';

/** The repeatable job that sends the push outbox's due pushes (retries included). */
export const PUSH_SEND_JOB_NAME = 'push.send';
export const PUSH_SEND_JOB_ID = 'push-send';

/**
 * How the API enqueues an export: one job per export (idempotent id), retried with exponential backoff
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
