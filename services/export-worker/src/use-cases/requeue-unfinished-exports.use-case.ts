import type { PipelineDependencies } from './pipeline-dependencies';

/** An unfinished export untouched this long has surely lost its job (a live one moves or is retried sooner). */
export const UNFINISHED_AFTER_MS = 15 * 60 * 1000;

/**
 * Part of the scheduled maintenance: queues again the exports whose job was lost (the API committed the
 * export but Redis refused the job, or Redis lost its data). Queuing uses the export's own job id, so an
 * export whose job still exists is not queued twice. Returns how many were queued.
 */
export async function requeueUnfinishedExports(
  deps: Pick<PipelineDependencies, 'exports'>,
  enqueue: (userId: string, exportId: string) => Promise<void>,
  now: Date = new Date(),
): Promise<number> {
  const unfinished = await deps.exports.findUnfinished(new Date(now.getTime() - UNFINISHED_AFTER_MS), 500);
  for (const { userId, id } of unfinished) await enqueue(userId, id);
  return unfinished.length;
}
