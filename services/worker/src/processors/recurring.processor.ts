import type { JobContract, RecurringJobPayload } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { Job, UnrecoverableError } from 'bullmq';

/** A recurring job's work; returns how many things it did (logged when any). */
export type RecurringJobHandler = () => Promise<number>;

/**
 * The processor of a recurring job's own queue (export cleanup, push delivery): checks the job against its
 * contract, then runs the work. A job that breaks the contract fails without retries.
 */
export function createRecurringProcessor(
  contract: JobContract<RecurringJobPayload>,
  handle: RecurringJobHandler,
  logger: Logger,
  done: { countKey: string; message: string },
) {
  return async (job: Job): Promise<void> => {
    if (job.name !== contract.name) throw new UnrecoverableError(`unknown job name ${job.name}`);
    const parsed = contract.schema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid ${contract.name} payload: ${parsed.error.message}`);
    const count = await handle();
    if (count) logger.info({ [done.countKey]: count }, done.message);
  };
}
