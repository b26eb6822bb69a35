import { z } from 'zod';
import type { JobContract } from './job-contract';
import { RESOURCE_ID_REGEX } from './resource-id';

/**
 * The account deletion job: erases every row, stored file and Redis key of one user. Produced by the auth
 * service (the account page) and the API (`DELETE /me`) once the account is closed; consumed by the worker.
 * The payload holds the user's id only.
 */
export const ACCOUNT_DELETION_QUEUE_NAME = 'account-deletion';
export const ACCOUNT_DELETION_JOB_NAME = 'account.delete';
export const ACCOUNT_DELETION_JOB_VERSION = 1;

export const AccountDeletionJobV1Schema = z.object({
  version: z.literal(1),
  userId: z.string().regex(RESOURCE_ID_REGEX, 'must be a user id'),
});

export const AccountDeletionJobPayloadSchema = AccountDeletionJobV1Schema;
export type AccountDeletionJobPayload = z.infer<typeof AccountDeletionJobPayloadSchema>;

export const accountDeletionJob: JobContract<AccountDeletionJobPayload> = {
  queue: ACCOUNT_DELETION_QUEUE_NAME,
  name: ACCOUNT_DELETION_JOB_NAME,
  schema: AccountDeletionJobPayloadSchema,
};

/** The worker's backoff strategy name for this job: doubling from 1 s, capped at 5 minutes. */
export const ACCOUNT_DELETION_BACKOFF = 'account-deletion';
export const accountDeletionBackoffMs = (attemptsMade: number) =>
  Math.min(5 * 60_000, 1_000 * 2 ** Math.max(0, attemptsMade - 1));

/**
 * One job per user (a second request while one waits is the same job), retried until it completes: the
 * attempts are practically unbounded and the delay between them is capped, so a store down for hours only
 * delays the deletion. A completed job is forgotten, so a later request (a user made again) runs anew.
 */
export const accountDeletionJobOptions = (userId: string) => ({
  jobId: `account-delete-${userId}`,
  attempts: Number.MAX_SAFE_INTEGER,
  backoff: { type: ACCOUNT_DELETION_BACKOFF },
  removeOnComplete: true,
  removeOnFail: false,
});
