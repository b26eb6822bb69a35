import {
  EXPORT_CLEANUP_JOB_ID,
  EXPORT_CLEANUP_JOB_NAME,
  EXPORT_CLEANUP_QUEUE_NAME,
  EXPORT_JOB_NAME,
  EXPORT_QUEUE_NAME,
  exportJobId,
  PUSH_DELIVERY_QUEUE_NAME,
  PUSH_SEND_JOB_ID,
  PUSH_SEND_JOB_NAME,
  queuePrefix,
} from '@pfs/contracts';
import { createRedisClient } from '@pfs/redis';
import { testLogger } from '@pfs/testing';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { loadWorkerConfig } from '../../src/config';
import { scheduleRecurringJobs, startExportWorker, startRecurringWorkers } from '../../src/worker';

/** One queue per kind of job: the exports queue, and the recurring jobs' own queues (a prefix per test file). */
const prefix = `${process.env.REDIS_KEY_PREFIX}jq-${randomBytes(3).toString('hex')}:`;
const config = loadWorkerConfig({ ...process.env, REDIS_KEY_PREFIX: prefix, WORKER_CONCURRENCY: '1' });
const connection = createRedisClient({
  url: config.REDIS_URL,
  keyPrefix: '',
  forBlockingQueue: true,
  lazyConnect: false,
});
const queueOf = (name: string) => new Queue(name, { connection, prefix: queuePrefix(prefix) });
const exportsQueue = queueOf(EXPORT_QUEUE_NAME);
const pushQueue = queueOf(PUSH_DELIVERY_QUEUE_NAME);
const cleanupQueue = queueOf(EXPORT_CLEANUP_QUEUE_NAME);
const eventConnections = [connection.duplicate(), connection.duplicate()];
const exportEvents = new QueueEvents(EXPORT_QUEUE_NAME, {
  connection: eventConnections[0],
  prefix: queuePrefix(prefix),
});
const pushEvents = new QueueEvents(PUSH_DELIVERY_QUEUE_NAME, {
  connection: eventConnections[1],
  prefix: queuePrefix(prefix),
});
const workers: Worker[] = [];

beforeAll(() => Promise.all([exportEvents.waitUntilReady(), pushEvents.waitUntilReady()]));
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close(true)));
});
afterAll(async () => {
  await exportEvents.close();
  await pushEvents.close();
  for (const queue of [exportsQueue, pushQueue, cleanupQueue]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  for (const shared of [connection, ...eventConnections]) shared.disconnect();
});

describe('one queue per kind of job', () => {
  it('when every export slot is taken by a long export, then a push delivery job still runs at once', async () => {
    let releaseExport = () => undefined as void;
    const exportRunning = new Promise<void>((started) => {
      workers.push(
        startExportWorker(config, testLogger(), async () => {
          started();
          await new Promise<void>((resolve) => (releaseExport = resolve));
        }),
      );
    });
    let pushes = 0;
    workers.push(
      ...startRecurringWorkers(config, testLogger(), {
        cleanup: async () => 0,
        sendPushes: async () => {
          pushes += 1;
          return 0;
        },
      }),
    );
    await exportsQueue.add(
      EXPORT_JOB_NAME,
      { version: 1, exportId: '1', userId: '1' },
      { jobId: exportJobId('1') },
    );
    await exportRunning;
    const push = await pushQueue.add(PUSH_SEND_JOB_NAME, { version: 1 });
    await push.waitUntilFinished(pushEvents, 5_000);
    expect(pushes).toBe(1);
    releaseExport();
  });

  it('when a recurring job breaks its payload contract, then it fails without running', async () => {
    let pushes = 0;
    workers.push(
      ...startRecurringWorkers(config, testLogger(), {
        cleanup: async () => 0,
        sendPushes: async () => (pushes += 1),
      }),
    );
    const job = await pushQueue.add(PUSH_SEND_JOB_NAME, { version: 99 }, { attempts: 3 });
    await expect(job.waitUntilFinished(pushEvents, 5_000)).rejects.toThrow(/invalid push.send payload/);
    expect(pushes).toBe(0);
  });

  it('when three workers start, then each recurring job has one scheduler and each of its runs is on one worker', async () => {
    // Every worker process schedules the recurring jobs at start: three at once, a tick every second.
    const everySecond = loadWorkerConfig({
      ...process.env,
      REDIS_KEY_PREFIX: prefix,
      PUSH_RETRY_INTERVAL_SECONDS: '1',
      EXPORT_CLEANUP_INTERVAL_SECONDS: '1',
    });
    await Promise.all([1, 2, 3].map(() => scheduleRecurringJobs(everySecond)));
    expect(await cleanupQueue.getJobSchedulers()).toHaveLength(1);
    expect(await pushQueue.getJobSchedulers()).toHaveLength(1);

    const runs = { cleanup: [0, 0, 0], push: [0, 0, 0] };
    for (const worker of [0, 1, 2])
      workers.push(
        ...startRecurringWorkers(everySecond, testLogger(), {
          cleanup: async () => {
            runs.cleanup[worker] += 1;
            return 0;
          },
          sendPushes: async () => {
            runs.push[worker] += 1;
            return 0;
          },
        }),
      );
    const total = (counts: number[]) => counts.reduce((sum, count) => sum + count, 0);
    const started = Date.now();
    while (total(runs.cleanup) < 3 || total(runs.push) < 3) {
      if (Date.now() - started > 30_000) throw new Error(`too few runs: ${JSON.stringify(runs)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
    // One run per tick, whichever worker took it: three workers each running every tick would make three
    // times as many runs as seconds passed.
    const seconds = Math.ceil((Date.now() - started) / 1000);
    expect(total(runs.cleanup)).toBeLessThanOrEqual(seconds + 1);
    expect(total(runs.push)).toBeLessThanOrEqual(seconds + 1);
    await scheduleRecurringJobs(config);
  });

  it('when an earlier release scheduled the recurring jobs on the exports queue, then scheduling removes them and their queued jobs complete without work', async () => {
    for (const [id, name] of [
      [EXPORT_CLEANUP_JOB_ID, EXPORT_CLEANUP_JOB_NAME],
      [PUSH_SEND_JOB_ID, PUSH_SEND_JOB_NAME],
    ]) {
      await exportsQueue.upsertJobScheduler(id, { every: 3_600_000 }, { name, data: {} });
    }
    expect(await exportsQueue.getJobSchedulers()).toHaveLength(2);
    await scheduleRecurringJobs(config);
    expect(await exportsQueue.getJobSchedulers()).toEqual([]);

    const handled: unknown[] = [];
    workers.push(startExportWorker(config, testLogger(), async (payload) => void handled.push(payload)));
    const legacy = await exportsQueue.add(PUSH_SEND_JOB_NAME, {});
    await legacy.waitUntilFinished(exportEvents, 5_000);
    expect(await legacy.getState()).toBe('completed');
    expect(handled).toEqual([]);
  });
});
