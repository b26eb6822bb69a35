import { formatTraceparent, type TraceContext } from '@pfs/logger';
import { Job, type Queue } from 'bullmq';

/** The latest job of an export or import (the highest run that BullMQ still holds), with its state. */
export interface ExportRunJob {
  run: number;
  state: string;
  failedReason?: string;
}

/** The run the worker's sweeper queues: the API's job is run 0, so its id differs from a failed job BullMQ keeps. */
export const SWEEP_RUN = 1;

/** Which run of an export or import to queue, and in whose trace. */
export interface RunOptions {
  /** 0 (the default): the API's run; the worker's sweeper queues SWEEP_RUN. */
  run?: number;
  /** The queuing request's trace: its span is the job's parent (the worker's span, exported or not, is its child). */
  trace?: TraceContext;
}

/** The payload's `traceparent` for a job queued in `trace`; none for work outside a request. */
export function traceparentOf(trace: TraceContext | undefined): string | undefined {
  return trace ? formatTraceparent(trace) : undefined;
}

/** The newest job of one export or import that `queue` still holds: the sweeper's run, else the API's. */
export async function latestRunOf(
  queue: Queue,
  jobIdOf: (run: number) => string,
): Promise<ExportRunJob | undefined> {
  for (const run of [SWEEP_RUN, 0]) {
    const job = await Job.fromId(queue, jobIdOf(run));
    if (job) return { run, state: await job.getState(), failedReason: job.failedReason };
  }
  return undefined;
}
