import { eraseUser, EraseUserDependencies } from '@pfs/accounts';
import { accountDeletionJob } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { Job, UnrecoverableError } from 'bullmq';

/**
 * The account deletion job: checks the payload against its contract, then erases the user (rows, files,
 * Redis keys). Any failure throws, and BullMQ tries again later (the contract's capped backoff) until a run
 * completes; a user already gone is a completed deletion (a rerun after a crash past the rows' removal).
 */
export function createAccountDeletionProcessor(deps: EraseUserDependencies, logger: Logger) {
  return async (job: Job): Promise<void> => {
    if (job.name !== accountDeletionJob.name) throw new UnrecoverableError(`unknown job name ${job.name}`);
    const parsed = accountDeletionJob.schema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid ${accountDeletionJob.name} payload: ${parsed.error.message}`);
    const erased = await eraseUser(deps, parsed.data.userId);
    logger.info(
      erased
        ? { userId: parsed.data.userId, files: erased.deleted_files, tokens: erased.revoked_tokens }
        : { userId: parsed.data.userId, alreadyGone: true },
      'account deleted',
    );
  };
}
