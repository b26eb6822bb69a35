import { z } from 'zod';
import type { JobContract } from './job-contract';

/** The payload of a job the worker schedules for itself: nothing but its version. */
const RecurringJobV1Schema = z.object({ version: z.literal(1) });
export type RecurringJobPayload = z.infer<typeof RecurringJobV1Schema>;
export const RECURRING_JOB_VERSION = 1;

/** The repeatable job that removes expired export files (and repairs unfinished exports), on its own queue. */
export const EXPORT_CLEANUP_QUEUE_NAME = 'export-cleanup';
export const EXPORT_CLEANUP_JOB_NAME = 'export.cleanup';
export const EXPORT_CLEANUP_JOB_ID = 'export-cleanup';
export const exportCleanupJob: JobContract<RecurringJobPayload> = {
  queue: EXPORT_CLEANUP_QUEUE_NAME,
  name: EXPORT_CLEANUP_JOB_NAME,
  schema: RecurringJobV1Schema,
};

/** The repeatable job that sends the push outbox's due pushes (retries included), on its own queue. */
export const PUSH_DELIVERY_QUEUE_NAME = 'push-delivery';
export const PUSH_SEND_JOB_NAME = 'push.send';
export const PUSH_SEND_JOB_ID = 'push-send';
export const pushSendJob: JobContract<RecurringJobPayload> = {
  queue: PUSH_DELIVERY_QUEUE_NAME,
  name: PUSH_SEND_JOB_NAME,
  schema: RecurringJobV1Schema,
};

/**
 * Releases before one queue per job kind scheduled both recurring jobs on the exports queue (payload `{}`).
 * A worker of this release removes those schedulers at start and completes any such job left on the exports
 * queue without work: the same work runs on the jobs' own queues.
 */
export const LEGACY_EXPORT_QUEUE_SCHEDULERS = [EXPORT_CLEANUP_JOB_ID, PUSH_SEND_JOB_ID] as const;
export const LEGACY_EXPORT_QUEUE_JOB_NAMES: readonly string[] = [EXPORT_CLEANUP_JOB_NAME, PUSH_SEND_JOB_NAME];
