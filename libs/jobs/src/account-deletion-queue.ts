import { ACCOUNT_DELETION_JOB_VERSION, accountDeletionJob, accountDeletionJobOptions } from '@pfs/contracts';
import { JobQueueConfig, openJobQueue } from './job-queue';

/** The account deletion queue as the auth service (account page) and the API (`DELETE /me`) use it. */
export interface AccountDeletionQueue {
  /** Queues the erasure of the user (the same job when one already waits); ids only in the payload. */
  request(userId: string): Promise<void>;
  /** The state of the user's deletion job, when BullMQ still holds it (tests and operators). */
  stateOf(userId: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export function openAccountDeletionQueue(config: JobQueueConfig): AccountDeletionQueue {
  const jobs = openJobQueue(accountDeletionJob, config);
  return {
    request: (userId) =>
      jobs.add({ version: ACCOUNT_DELETION_JOB_VERSION, userId }, accountDeletionJobOptions(userId)),
    async stateOf(userId) {
      const job = await jobs.queue.getJob(accountDeletionJobOptions(userId).jobId);
      return job ? await job.getState() : undefined;
    },
    close: () => jobs.close(),
  };
}
