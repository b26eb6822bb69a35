import { EXPORT_QUEUE_NAME, queuePrefix } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { createRedisClient } from '@pfs/redis';
import { Worker } from 'bullmq';
import type { WorkerConfig } from './config';
import { createExportProcessor, ExportJobHandler } from './processors/export-resources.processor';

/** Starts consuming the exports queue. Per BullMQ's production guide: an error listener, and close() on shutdown. */
export function startExportWorker(config: WorkerConfig, logger: Logger, handle: ExportJobHandler): Worker {
  const connection = createRedisClient({
    url: config.REDIS_URL,
    keyPrefix: '',
    forBlockingQueue: true,
    lazyConnect: false,
  });
  const worker = new Worker(EXPORT_QUEUE_NAME, createExportProcessor(handle, logger), {
    connection,
    prefix: queuePrefix(config.REDIS_KEY_PREFIX),
    concurrency: config.WORKER_CONCURRENCY,
    autorun: true,
  });
  worker.on('error', (error) => logger.error({ err: error }, 'export worker error'));
  worker.on('failed', (job, error) => logger.warn({ jobId: job?.id, err: error }, 'export job failed'));
  // The worker owns its connection; closing the worker should close it too.
  worker.on('closed', () => connection.disconnect());
  return worker;
}
