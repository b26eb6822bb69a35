import {
  EXPORT_JOB_NAME,
  EXPORT_QUEUE_NAME,
  ExportJobPayload,
  exportJobId,
  queuePrefix,
} from '@pfs/contracts';
import { createRedisClient } from '@pfs/redis';
import { testLogger } from '@pfs/testing';
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { loadWorkerConfig } from '../../src/config';
import { startExportWorker } from '../../src/worker';

/** The worker consumes the real exports queue on the test run's Redis prefix (a unique one per test file). */
describe('export worker queue consumption', () => {
  const prefixSuffix = randomBytes(4).toString('hex');
  const config = loadWorkerConfig({
    ...process.env,
    REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}${prefixSuffix}:`,
  });
  const connection = createRedisClient({
    url: config.REDIS_URL,
    keyPrefix: '',
    forBlockingQueue: true,
    lazyConnect: false,
  });
  const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: queuePrefix(config.REDIS_KEY_PREFIX) });
  const eventsConnection = connection.duplicate();
  const events = new QueueEvents(EXPORT_QUEUE_NAME, {
    connection: eventsConnection,
    prefix: queuePrefix(config.REDIS_KEY_PREFIX),
  });
  const handled: ExportJobPayload[] = [];
  let worker: Worker;

  beforeAll(async () => {
    worker = startExportWorker(config, testLogger(), async (payload) => {
      handled.push(payload);
    });
    await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);
  });

  afterAll(async () => {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
    eventsConnection.disconnect();
  });

  it('when an export job is queued, then the worker hands its payload to the pipeline and completes it', async () => {
    const payload: ExportJobPayload = { version: 1, exportId: '42', userId: '7' };
    const job = await queue.add(EXPORT_JOB_NAME, payload, { jobId: exportJobId('42') });
    await job.waitUntilFinished(events, 10_000);
    expect(handled).toContainEqual(payload);
  });

  it('when the same export is queued twice, then it is one job', async () => {
    const payload: ExportJobPayload = { version: 1, exportId: '43', userId: '7' };
    const first = await queue.add(EXPORT_JOB_NAME, payload, { jobId: exportJobId('43') });
    const second = await queue.add(EXPORT_JOB_NAME, payload, { jobId: exportJobId('43') });
    expect(second.id).toBe(first.id);
    await first.waitUntilFinished(events, 10_000);
    expect(handled.filter((p) => p.exportId === '43')).toHaveLength(1);
  });

  it('when a job breaks the payload contract, then it fails at once without retries', async () => {
    const job = await queue.add(
      EXPORT_JOB_NAME,
      { exportId: 44 },
      { jobId: 'bad-44', attempts: 3, backoff: { type: 'fixed', delay: 10 } },
    );
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/invalid export.resources payload/);
    const failed = (await Job.fromId(queue, job.id!))!;
    expect(failed.attemptsMade).toBe(1);
  });

  it('when the worker closes, then it stops running', async () => {
    const extra = startExportWorker(config, testLogger(), async () => undefined);
    await extra.waitUntilReady();
    expect(extra.isRunning()).toBe(true);
    await extra.close();
    expect(extra.isRunning()).toBe(false);
  });
});
