import { UnrecoverableError } from 'bullmq';

/**
 * A permanent failure with a reason the user can read: BullMQ does not retry it, and the export's
 * `error` status carries `userReason`. The message (for logs) may say more than the user sees.
 */
export class ExportFailure extends UnrecoverableError {
  constructor(
    readonly userReason: string,
    message = userReason,
  ) {
    super(message);
    this.name = 'ExportFailure';
  }
}

/** What the user reads when an export ends in error. Internal details never reach it. */
export function userReasonOf(error: unknown, attempts: number): string {
  if (error instanceof ExportFailure) return error.userReason;
  return `The export could not be generated after ${attempts} attempt${attempts === 1 ? '' : 's'}; please try again later.`;
}
