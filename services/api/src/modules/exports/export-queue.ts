import {
  EXPORT_JOB_NAME,
  EXPORT_JOB_VERSION,
  EXPORT_QUEUE_NAME,
  exportJobOptions,
  queuePrefix,
} from '@pfs/contracts';
import { currentTrace, formatTraceparent } from '@pfs/logger';
import { closeQueueAndConnection, createRedisClient, redisTimeouts } from '@pfs/redis';
import { Queue } from 'bullmq';

/** The producer side of the exports queue; ids only in the payload (no data, no secrets). */
export interface ExportQueue {
  enqueue(userId: string, exportId: string): Promise<void>;
  close(): Promise<void>;
}

/** The request's own span is the job's parent (the worker's span, exported or not, is its child). */
function traceparentOfCurrentWork(): string | undefined {
  const trace = currentTrace();
  return trace ? formatTraceparent(trace) : undefined;
}

export function createExportQueue(
  config: { REDIS_URL: string; REDIS_KEY_PREFIX: string } & Parameters<typeof redisTimeouts>[0],
): ExportQueue {
  // The producer issues no blocking command, so its commands time out (a down or frozen Redis makes
  // POST /exports a 503 instead of a request that waits in the offline queue forever).
  const connection = createRedisClient({
    url: config.REDIS_URL,
    keyPrefix: '',
    forBlockingQueue: true,
    ...redisTimeouts(config),
  });
  const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: queuePrefix(config.REDIS_KEY_PREFIX) });
  // Outages surface where it matters (POST /exports fails, /health reports Redis); the producer's own
  // connection must never crash the process with an unhandled 'error' event.
  connection.on('error', () => undefined);
  queue.on('error', () => undefined);
  return {
    async enqueue(userId, exportId) {
      await queue.add(
        EXPORT_JOB_NAME,
        { version: EXPORT_JOB_VERSION, exportId, userId, traceparent: traceparentOfCurrentWork() },
        exportJobOptions(exportId),
      );
    },
    close: () => closeQueueAndConnection(queue, connection),
  };
}
