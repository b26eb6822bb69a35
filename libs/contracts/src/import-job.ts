import { z } from 'zod';
import type { JobContract } from './job-contract';

/** The file formats an import reads (docs/imports.md); `auto` asks the worker to detect it. */
export const IMPORT_FORMATS = ['csv', 'pfs_csv', 'toshl_csv', 'ofx', 'qif', 'camt053'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * uploaded → parsing → parsed → importing → imported, or error (with the line, field and reason). A dry run
 * stops at `parsed`, its plan in `result`.
 */
export const IMPORT_STATUSES = ['uploaded', 'parsing', 'parsed', 'importing', 'imported', 'error'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The columns a CSV mapping may name (by header text, or by 1-based column number as a string). */
export const IMPORT_MAPPING_FIELDS = [
  'date',
  'amount',
  'debit',
  'credit',
  'description',
  'category',
  'tags',
  'currency',
] as const;
export type ImportMappingField = (typeof IMPORT_MAPPING_FIELDS)[number];

/** How the file is read: everything a client may set on POST /imports besides the file and the account. */
export interface ImportOptions {
  /** Given by the client, or undefined for detection. */
  format?: ImportFormat;
  mapping?: Partial<Record<ImportMappingField, string>>;
  /** e.g. `YYYY-MM-DD` (default, detected), `DD.MM.YYYY`, `MM/DD/YYYY`, `DD/MM/YY`. */
  dateFormat?: string;
  /** The decimal separator of amounts: `.` (default) or `,`. */
  decimalSeparator?: '.' | ',';
  /** A one-character CSV delimiter; detected when absent. */
  delimiter?: string;
  /** A character encoding iconv-lite knows (`utf-8`, `windows-1252`, …); detected when absent. */
  encoding?: string;
  /** Separator of several tags in one CSV cell (default `,`). */
  tagSeparator?: string;
}

/**
 * The import job: parses an uploaded statement and writes its entries. Produced by the API (POST /imports)
 * and the worker's sweeper (a lost job queued again); consumed by the worker, on its own queue.
 */
export const IMPORT_QUEUE_NAME = 'imports';
export const IMPORT_JOB_NAME = 'import.statement';
export const IMPORT_JOB_VERSION = 1;

export const ImportJobV1Schema = z.object({
  version: z.literal(1),
  importId: z.string(),
  userId: z.string(),
  /** The W3C trace context of the request that queued it (not a secret). */
  traceparent: z.string().max(512).optional(),
});

export const ImportJobPayloadSchema = ImportJobV1Schema;
export type ImportJobPayload = z.infer<typeof ImportJobPayloadSchema>;

export const importJob: JobContract<ImportJobPayload> = {
  queue: IMPORT_QUEUE_NAME,
  name: IMPORT_JOB_NAME,
  schema: ImportJobPayloadSchema,
};

/** One job per import and run (BullMQ refuses ':' in custom ids; a later run needs its own id). */
export const importRunJobId = (importId: string, run = 0) =>
  run === 0 ? `import-${importId}` : `import-${importId}-r${run}`;

/** Retried with exponential backoff on transient failures (a database outage); a bad file fails at once. */
export const IMPORT_JOB_ATTEMPTS = 5;
export const importJobOptions = (importId: string, run = 0) => ({
  jobId: importRunJobId(importId, run),
  attempts: IMPORT_JOB_ATTEMPTS,
  backoff: { type: 'exponential' as const, delay: 5_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});
