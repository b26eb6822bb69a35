import {
  ACCOUNT_DELETION_QUEUE_NAME,
  accountDeletionBackoffMs,
  EXPORT_CLEANUP_JOB_ID,
  EXPORT_JOB_NAME,
  EXPORT_QUEUE_NAME,
  IMPORT_QUEUE_NAME,
  ExportJobPayload,
  ExportJobPayloadSchema,
  exportCleanupJob,
  JobContract,
  LEGACY_EXPORT_QUEUE_SCHEDULERS,
  PUSH_SEND_JOB_ID,
  pushSendJob,
  RECURRING_JOB_VERSION,
  RecurringJobPayload,
  WEBHOOK_BACKOFF,
  WEBHOOK_DELIVERY_QUEUE_NAME,
  webhookRetryDelayMs,
} from '@pfs/contracts';
import { webhookRetryPolicyOf } from '@pfs/jobs';
import type { Logger } from '@pfs/logger';
import { createRedisClient, redisAddressOf } from '@pfs/redis';
import { jobQueuePrefix } from '@pfs/jobs';
import { Processor, Queue, Worker, WorkerOptions } from 'bullmq';
import type { WorkerConfig } from './config';
import { createExportProcessor, ExportJobHandler } from './processors/export-resources.processor';
import { createImportProcessor, ImportJobHandler } from './processors/import.processor';
import { createRecurringProcessor, RecurringJobHandler } from './processors/recurring.processor';
import {
  createWebhookDeliveryProcessor,
  WebhookDeliveryHandler,
} from './processors/webhook-delivery.processor';

/**
 * One BullMQ worker on one queue, per BullMQ's production guide: its own blocking connection, an error
 * listener, and close() on shutdown. Several processes may run it against one queue: BullMQ's job locks
 * give each job to one worker at a time, and a job whose worker died is found stalled and handed to another.
 */
function startQueueWorker(
  queueName: string,
  processor: Processor,
  config: WorkerConfig,
  logger: Logger,
  concurrency: number,
  settings?: WorkerOptions['settings'],
): Worker {
  const connection = createRedisClient({
    ...redisAddressOf(config),
    keyPrefix: '',
    forBlockingQueue: true,
    lazyConnect: false,
  });
  const worker = new Worker(queueName, processor, {
    connection,
    prefix: jobQueuePrefix(config),
    concurrency,
    autorun: true,
    stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
    lockDuration: Math.max(config.WORKER_STALLED_INTERVAL_MS, 1_000),
    // A job stalled this many times (its workers keep dying) fails instead of looping forever.
    maxStalledCount: 2,
    settings,
  });
  worker.on('error', (error) => logger.error({ err: error, queue: queueName }, 'queue worker error'));
  // The worker owns its connection; closing the worker should close it too.
  worker.on('closed', () => connection.disconnect());
  return worker;
}

/** Starts consuming the exports queue (WORKER_CONCURRENCY exports at a time in this process). */
export function startExportWorker(
  config: WorkerConfig,
  logger: Logger,
  handle: ExportJobHandler,
  onFinalFailure?: (payload: ExportJobPayload, error: Error) => Promise<void>,
): Worker {
  const processor = createExportProcessor(handle, logger);
  const worker = startQueueWorker(EXPORT_QUEUE_NAME, processor, config, logger, config.WORKER_CONCURRENCY);
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
  return worker;
}

/**
 * Starts consuming the account deletion queue, one deletion at a time per process. Its jobs use the
 * contract's capped backoff, so a deletion is retried until it completes.
 */
export function startAccountDeletionWorker(
  config: WorkerConfig,
  logger: Logger,
  processor: Processor,
): Worker {
  const worker = startQueueWorker(ACCOUNT_DELETION_QUEUE_NAME, processor, config, logger, 1, {
    backoffStrategy: (attemptsMade: number) => accountDeletionBackoffMs(attemptsMade),
  });
  worker.on('failed', (job, error) =>
    logger.warn(
      { jobId: job?.id, attempt: job?.attemptsMade, err: error },
      'account deletion attempt failed',
    ),
  );
  return worker;
}

/** Starts consuming the imports queue (WORKER_IMPORT_CONCURRENCY imports at a time in this process). */
export function startImportWorker(config: WorkerConfig, logger: Logger, handle: ImportJobHandler): Worker {
  const worker = startQueueWorker(
    IMPORT_QUEUE_NAME,
    createImportProcessor(handle, logger),
    config,
    logger,
    config.WORKER_IMPORT_CONCURRENCY,
  );
  worker.on('failed', (job, error) => logger.warn({ jobId: job?.id, err: error }, 'import job failed'));
  return worker;
}

/**
 * Starts consuming the webhook delivery queue (WEBHOOK_CONCURRENCY attempts at a time in this process), with
 * the webhook backoff: delays double from WEBHOOK_RETRY_BASE_MS up to WEBHOOK_RETRY_MAX_DELAY_MS.
 */
export function startWebhookWorker(
  config: WorkerConfig,
  logger: Logger,
  handle: WebhookDeliveryHandler,
): Worker {
  const policy = webhookRetryPolicyOf(config);
  const worker = startQueueWorker(
    WEBHOOK_DELIVERY_QUEUE_NAME,
    createWebhookDeliveryProcessor(handle),
    config,
    logger,
    config.WEBHOOK_CONCURRENCY,
    {
      backoffStrategy: (attemptsMade: number, type?: string) =>
        type === WEBHOOK_BACKOFF ? webhookRetryDelayMs(policy, attemptsMade) : 1_000,
    },
  );
  worker.on('failed', (job, error) =>
    logger.debug({ jobId: job?.id, reason: error.message }, 'webhook attempt failed'),
  );
  return worker;
}

/** The recurring jobs' handlers: each runs on its own queue, one at a time per process. */
export interface RecurringHandlers {
  /** The export cleanup (with the sweep of unfinished exports); returns how many exports it cleaned. */
  cleanup: RecurringJobHandler;
  /** Sends the push outbox's due pushes; returns how many were settled. */
  sendPushes: RecurringJobHandler;
}

/** Starts consuming the cleanup and push delivery queues: neither ever waits behind a long export. */
export function startRecurringWorkers(
  config: WorkerConfig,
  logger: Logger,
  handlers: RecurringHandlers,
): Worker[] {
  const start = (
    contract: JobContract<RecurringJobPayload>,
    handle: RecurringJobHandler,
    done: { countKey: string; message: string },
  ) =>
    startQueueWorker(
      contract.queue,
      createRecurringProcessor(contract, handle, logger, done),
      config,
      logger,
      1,
    );
  return [
    start(exportCleanupJob, handlers.cleanup, { countKey: 'cleaned', message: 'expired exports cleaned' }),
    start(pushSendJob, handlers.sendPushes, { countKey: 'settled', message: 'pushes sent or settled' }),
  ];
}

/** Runs `work` with a queue handle of its own (closed afterwards). */
async function withQueue(config: WorkerConfig, name: string, work: (queue: Queue) => Promise<unknown>) {
  const connection = createRedisClient({
    ...redisAddressOf(config),
    keyPrefix: '',
    forBlockingQueue: true,
    lazyConnect: false,
  });
  const queue = new Queue(name, { connection, prefix: jobQueuePrefix(config) });
  try {
    await work(queue);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/**
 * Registers the repeatable jobs, the expired-export cleanup and the push outbox's retries, each on its own
 * queue (idempotent: every worker may call it at start), and removes the schedulers earlier releases kept
 * on the exports queue.
 */
export async function scheduleRecurringJobs(config: WorkerConfig): Promise<void> {
  const schedule = (contract: JobContract<RecurringJobPayload>, id: string, everySeconds: number) =>
    withQueue(config, contract.queue, (queue) =>
      queue.upsertJobScheduler(
        id,
        { every: everySeconds * 1000 },
        {
          name: contract.name,
          data: contract.schema.parse({ version: RECURRING_JOB_VERSION }),
          opts: { removeOnComplete: true, removeOnFail: 100 },
        },
      ),
    );
  await schedule(exportCleanupJob, EXPORT_CLEANUP_JOB_ID, config.EXPORT_CLEANUP_INTERVAL_SECONDS);
  await schedule(pushSendJob, PUSH_SEND_JOB_ID, config.PUSH_RETRY_INTERVAL_SECONDS);
  await withQueue(config, EXPORT_QUEUE_NAME, (queue) =>
    Promise.all(LEGACY_EXPORT_QUEUE_SCHEDULERS.map((id) => queue.removeJobScheduler(id))),
  );
}
