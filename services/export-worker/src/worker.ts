import {
  EXPORT_CLEANUP_JOB_ID,
  EXPORT_CLEANUP_JOB_NAME,
  EXPORT_JOB_NAME,
  EXPORT_JOB_VERSION,
  EXPORT_QUEUE_NAME,
  ExportJobPayload,
  ExportJobPayloadSchema,
  exportJobOptions,
  exportRunJobId,
  PUSH_SEND_JOB_ID,
  PUSH_SEND_JOB_NAME,
  queuePrefix,
} from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { closeQueueAndConnection, createRedisClient } from '@pfs/redis';
import { Job, Queue, Worker } from 'bullmq';
import type { WorkerConfig } from './config';
import {
  CleanupJobHandler,
  createExportProcessor,
  ExportJobHandler,
  PushJobHandler,
} from './processors/export-resources.processor';
import { ExportRunJob, SWEEP_RUN } from './use-cases/repair-unfinished-exports.use-case';

/**
 * Starts consuming the exports queue. Per BullMQ's production guide: an error listener, and close() on
 * shutdown. Several processes may run this against one queue: BullMQ's job locks give each job to one
 * worker at a time, and a job whose worker died is found stalled and handed to another.
 */
export function startExportWorker(
  config: WorkerConfig,
  logger: Logger,
  handle: ExportJobHandler,
  cleanup?: CleanupJobHandler,
  sendPushes?: PushJobHandler,
  onFinalFailure?: (payload: ExportJobPayload, error: Error) => Promise<void>,
): Worker {
  const connection = createRedisClient({
    url: config.REDIS_URL,
    keyPrefix: '',
    forBlockingQueue: true,
    lazyConnect: false,
  });
  const worker = new Worker(EXPORT_QUEUE_NAME, createExportProcessor(handle, logger, cleanup, sendPushes), {
    connection,
    prefix: queuePrefix(config.REDIS_KEY_PREFIX),
    concurrency: config.WORKER_CONCURRENCY,
    autorun: true,
    stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
    lockDuration: Math.max(config.WORKER_STALLED_INTERVAL_MS, 1_000),
    // A job stalled this many times (its workers keep dying) fails instead of looping forever.
    maxStalledCount: 2,
  });
  worker.on('error', (error) => logger.error({ err: error }, 'export worker error'));
  worker.on('failed', (job, error) => {
    logger.warn({ jobId: job?.id, err: error }, 'export job failed');
    if (!job || job.name !== EXPORT_JOB_NAME || !onFinalFailure) return;
    // A job failed for good without its processor finishing (stalled past maxStalledCount: BullMQ fails it
    // without calling the processor) must still end its export, or the export stays unfinished forever.
    void (async () => {
      if ((await job.getState()) !== 'failed') return;
      const payload = ExportJobPayloadSchema.safeParse(job.data);
      if (payload.success) await onFinalFailure(payload.data, error);
    })().catch((failure: unknown) => logger.error({ err: failure, jobId: job.id }, 'ending a failed export'));
  });
  // The worker owns its connection; closing the worker should close it too.
  worker.on('closed', () => connection.disconnect());
  return worker;
}

/**
 * Registers the repeatable jobs, the expired-export cleanup and the push outbox's retries (idempotent: every
 * worker may call it at start).
 */
export async function scheduleExportCleanup(config: WorkerConfig): Promise<void> {
  const connection = createRedisClient({
    url: config.REDIS_URL,
    keyPrefix: '',
    forBlockingQueue: true,
    lazyConnect: false,
  });
  const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: queuePrefix(config.REDIS_KEY_PREFIX) });
  try {
    await queue.upsertJobScheduler(
      EXPORT_CLEANUP_JOB_ID,
      { every: config.EXPORT_CLEANUP_INTERVAL_SECONDS * 1000 },
      { name: EXPORT_CLEANUP_JOB_NAME, data: {}, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
    await queue.upsertJobScheduler(
      PUSH_SEND_JOB_ID,
      { every: config.PUSH_RETRY_INTERVAL_SECONDS * 1000 },
      { name: PUSH_SEND_JOB_NAME, data: {}, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** The queue as the worker's maintenance sees it (repairing unfinished exports); close it on shutdown. */
export function createExportEnqueuer(config: WorkerConfig) {
  const connection = createRedisClient({ url: config.REDIS_URL, keyPrefix: '', forBlockingQueue: true });
  const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: queuePrefix(config.REDIS_KEY_PREFIX) });
  connection.on('error', () => undefined);
  queue.on('error', () => undefined);
  return {
    async enqueue(userId: string, exportId: string, run: number) {
      await queue.add(
        EXPORT_JOB_NAME,
        { version: EXPORT_JOB_VERSION, userId, exportId },
        exportJobOptions(exportId, run),
      );
    },
    /** The export's newest job BullMQ still holds (the sweeper's run, else the API's), with its state. */
    async latestRun(exportId: string): Promise<ExportRunJob | undefined> {
      for (const run of [SWEEP_RUN, 0]) {
        const job = await Job.fromId(queue, exportRunJobId(exportId, run));
        if (job) return { run, state: await job.getState(), failedReason: job.failedReason };
      }
      return undefined;
    },
    /** Jobs per state, for the queue depth gauge. */
    jobCounts: () => queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
    close: () => closeQueueAndConnection(queue, connection),
  };
}
