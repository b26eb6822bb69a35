import {
  EXPORT_CLEANUP_JOB_ID,
  EXPORT_CLEANUP_JOB_NAME,
  EXPORT_CLEANUP_QUEUE_NAME,
  PUSH_DELIVERY_QUEUE_NAME,
  PUSH_SEND_JOB_ID,
  PUSH_SEND_JOB_NAME,
  EXPORT_JOB_NAME,
  EXPORT_QUEUE_NAME,
  exportJobId,
} from '@pfs/contracts';
import { jobQueuePrefix } from '@pfs/jobs';
import { createRedisClient, redisAddressOf } from '@pfs/redis';
import type { ObjectStorage } from '@pfs/storage';
import { testLogger } from '@pfs/testing';
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { loadWorkerConfig } from '../../src/config';
import { createUserSlots } from '../../src/delivery/user-slots';
import { endExportOfFailedJob, handleExportJob } from '../../src/processors/handle-export-job';
import type { PipelineDependencies } from '../../src/use-cases/pipeline-dependencies';
import { scheduleRecurringJobs, startExportWorker } from '../../src/worker';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { LedgerSeed } from '../support/seed-ledger';

const prefix = `${process.env.REDIS_KEY_PREFIX}q-${randomBytes(3).toString('hex')}:`;
const env = {
  ...process.env,
  REDIS_KEY_PREFIX: prefix,
  WORKER_STALLED_INTERVAL_MS: '500',
  WORKER_CONCURRENCY: '4',
};
const config = loadWorkerConfig(env);
const connection = createRedisClient({
  ...redisAddressOf(config),
  keyPrefix: '',
  forBlockingQueue: true,
  lazyConnect: false,
});
const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: jobQueuePrefix(config) });
const events = new QueueEvents(EXPORT_QUEUE_NAME, {
  connection: connection.duplicate(),
  prefix: jobQueuePrefix(config),
});
const slotsRedis = createRedisClient({ ...redisAddressOf(config), keyPrefix: prefix, lazyConnect: false });

let pipeline: TestPipeline;
const workers: Worker[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  pipeline = await createTestPipeline();
  await events.waitUntilReady();
});
// A failed test must not leave its worker consuming the next test's jobs.
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
});
afterAll(async () => {
  await events.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  slotsRedis.disconnect();
  await pipeline.close();
});

/** A storage that counts writes per key, tracks concurrent writes per user, and fails on demand. */
function instrumentedStorage(base: ObjectStorage, failures: { remaining: number; always?: boolean }) {
  const writes = new Map<string, number>();
  const running = new Map<string, number>();
  const peak = new Map<string, number>();
  const storage: ObjectStorage = {
    driver: base.driver,
    read: (key) => base.read(key),
    sweepAbandonedWrites: (olderThan) => base.sweepAbandonedWrites(olderThan),
    size: (key) => base.size(key),
    delete: (key) => base.delete(key),
    deletePrefix: (prefix) => base.deletePrefix(prefix),
    createDownloadLink: (key, options) => base.createDownloadLink(key, options),
    async write(key: string, body: Readable, options) {
      const user = key.split('/')[1];
      running.set(user, (running.get(user) ?? 0) + 1);
      peak.set(user, Math.max(peak.get(user) ?? 0, running.get(user)!));
      try {
        await new Promise((resolve) => setTimeout(resolve, 150));
        if (failures.always || failures.remaining > 0) {
          failures.remaining -= 1;
          body.resume();
          throw new Error('storage unavailable (ECONNRESET)');
        }
        writes.set(key, (writes.get(key) ?? 0) + 1);
        return await base.write(key, body, options);
      } finally {
        running.set(user, running.get(user)! - 1);
      }
    },
  };
  return { storage, writes, peak };
}

/** A real export worker in its own process (support/worker-child.ts), whose storage never finishes a write. */
function spawnWorkerChild(): ChildProcess {
  const child = spawn(
    process.execPath,
    ['-r', join(__dirname, '../support/ts-child-register.js'), join(__dirname, '../support/worker-child.ts')],
    { env: { ...env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return child;
}

/** Resolves when the child has printed `text`; rejects at once if it exits first (a crash at start). */
function untilOutput(child: ChildProcess, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) {
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`the worker child exited (${code ?? signal}) before printing "${text}"`));
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

function startWorker(overrides: Partial<PipelineDependencies>, userLimit = 1): Worker {
  const deps: PipelineDependencies = {
    ...pipeline.deps,
    slots: createUserSlots(slotsRedis, userLimit, 3_000),
    ...overrides,
  };
  const worker = startExportWorker(config, testLogger(), handleExportJob(deps));
  workers.push(worker);
  return worker;
}

async function newExport(seed: LedgerSeed, input: { formats?: string[] } = {}) {
  return pipeline.deps.repos.store.change(seed.userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: ['balances'],
      formats: input.formats ?? ['csv'],
      filters: null,
      from: null,
      to: null,
    }),
  );
}

const enqueue = (userId: string, exportId: string, attempts = 3) =>
  queue.add(
    EXPORT_JOB_NAME,
    { version: 1, userId, exportId },
    { jobId: exportJobId(exportId), attempts, backoff: { type: 'fixed', delay: 100 } },
  );

describe('the export queue', () => {
  it('when storage fails twice, then the job is retried with backoff and the export still ends sent', async () => {
    const { storage, writes } = instrumentedStorage(pipeline.deps.storage, { remaining: 2 });
    startWorker({ storage });
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const record = await newExport(seed);
    const job = await enqueue(seed.userId, record.id);
    await job.waitUntilFinished(events, 15_000);
    const done = (await pipeline.deps.repos.exports.findById(
      pipeline.deps.repos.store.read(seed.userId),
      record.id,
    ))!;
    expect(done.status).toBe('sent');
    expect(done.attempts).toBe(3);
    expect([...writes.values()]).toEqual([1]);
    // BullMQ 5 counts the successful attempt too.
    expect((await Job.fromId(queue, job.id!))!.attemptsMade).toBe(3);
  });

  it('when every attempt fails, then the export ends in error with a reason the user can read, and a notification', async () => {
    const { storage } = instrumentedStorage(pipeline.deps.storage, { remaining: 0, always: true });
    startWorker({ storage });
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const record = await newExport(seed);
    const job = await enqueue(seed.userId, record.id, 3);
    await expect(job.waitUntilFinished(events, 15_000)).rejects.toThrow('storage unavailable');
    const failed = (await pipeline.deps.repos.exports.findById(
      pipeline.deps.repos.store.read(seed.userId),
      record.id,
    ))!;
    expect(failed.status).toBe('error');
    expect(failed.errorReason).toBe(
      'The export could not be generated after 3 attempts; please try again later.',
    );
    expect(failed.errorReason).not.toContain('ECONNRESET');
    const notes = await pipeline.deps.repos.notifications.list(pipeline.deps.repos.store.read(seed.userId), {
      perPage: 10,
      offset: 0,
      includeDeleted: false,
    });
    expect(notes.items).toEqual([expect.objectContaining({ action: 'error', exportId: record.id })]);
  });

  it('when the failure is permanent, then it is not retried', async () => {
    startWorker({});
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const record = await newExport(seed, { formats: [] });
    const job = await enqueue(seed.userId, record.id, 5);
    await expect(job.waitUntilFinished(events, 15_000)).rejects.toThrow('nothing to produce');
    expect((await Job.fromId(queue, job.id!))!.attemptsMade).toBe(1);
    const failed = (await pipeline.deps.repos.exports.findById(
      pipeline.deps.repos.store.read(seed.userId),
      record.id,
    ))!;
    expect(failed).toMatchObject({
      status: 'error',
      errorReason: 'The export has nothing to produce: choose at least one resource and format.',
    });
  });

  it('when one user queues several exports, then they run one at a time while another user is not held back', async () => {
    const { storage, peak } = instrumentedStorage(pipeline.deps.storage, { remaining: 0 });
    startWorker({ storage }, 1);
    const busy = await LedgerSeed.forNewUser(pipeline.dataSource);
    const other = await LedgerSeed.forNewUser(pipeline.dataSource);
    const jobs: Job[] = [];
    for (let i = 0; i < 4; i += 1) jobs.push(await enqueue(busy.userId, (await newExport(busy)).id));
    const otherJob = await enqueue(other.userId, (await newExport(other)).id);
    const started = Date.now();
    await otherJob.waitUntilFinished(events, 15_000);
    const otherDone = Date.now() - started;
    await Promise.all(jobs.map((job) => job.waitUntilFinished(events, 20_000)));
    const busyDone = Date.now() - started;
    expect(peak.get(busy.userId)).toBe(1);
    expect(peak.get(other.userId)).toBe(1);
    // Four 150 ms writes in a row take the busy user far longer than the other user's one.
    expect(otherDone).toBeLessThan(busyDone);
  });

  it('when two workers share the queue, then every export is generated exactly once', async () => {
    const { storage, writes } = instrumentedStorage(pipeline.deps.storage, { remaining: 0 });
    startWorker({ storage }, 4);
    startWorker({ storage }, 4);
    const seeds = await Promise.all([0, 1, 2].map(() => LedgerSeed.forNewUser(pipeline.dataSource)));
    const jobs: Job[] = [];
    const ids: Array<[string, string]> = [];
    for (const seed of seeds) {
      for (let i = 0; i < 3; i += 1) {
        const record = await newExport(seed);
        ids.push([seed.userId, record.id]);
        jobs.push(await enqueue(seed.userId, record.id));
        // The same export queued again is the same job.
        await enqueue(seed.userId, record.id);
      }
    }
    await Promise.all(jobs.map((job) => job.waitUntilFinished(events, 20_000)));
    for (const [userId, id] of ids)
      expect(
        (await pipeline.deps.repos.exports.findById(pipeline.deps.repos.store.read(userId), id))!.status,
      ).toBe('sent');
    expect(writes.size).toBe(9);
    expect([...writes.values()].every((count) => count === 1)).toBe(true);
  });

  it('when the worker process is killed mid-export, then another worker recovers the stalled job and finishes it once', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const record = await newExport(seed);
    const child = spawnWorkerChild();
    const writing = untilOutput(child, 'writing');
    await untilOutput(child, 'ready');
    const job = await enqueue(seed.userId, record.id);
    await writing;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(
      (await pipeline.deps.repos.exports.findById(pipeline.deps.repos.store.read(seed.userId), record.id))!
        .status,
    ).toBe('generating');
    const { storage, writes } = instrumentedStorage(pipeline.deps.storage, { remaining: 0 });
    startWorker({ storage });
    await job.waitUntilFinished(events, 25_000);
    const done = (await pipeline.deps.repos.exports.findById(
      pipeline.deps.repos.store.read(seed.userId),
      record.id,
    ))!;
    expect(done.status).toBe('sent');
    expect(done.attempts).toBe(2);
    expect([...writes.values()]).toEqual([1]);
    const notes = await pipeline.deps.repos.notifications.list(pipeline.deps.repos.store.read(seed.userId), {
      perPage: 10,
      offset: 0,
      includeDeleted: false,
    });
    expect(notes.total).toBe(1);
  }, 90_000);

  it('when the worker is SIGKILLed mid-export again and again, then the stalled job ends its export in error with a reason', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const record = await newExport(seed);
    const job = await enqueue(seed.userId, record.id);
    // maxStalledCount is 2: the third death makes BullMQ fail the job without calling the processor.
    for (let kill = 0; kill < 3; kill += 1) {
      const child = spawnWorkerChild();
      await untilOutput(child, 'writing');
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const deps = { ...pipeline.deps, slots: createUserSlots(slotsRedis, 1, 3_000) };
    workers.push(startExportWorker(config, testLogger(), handleExportJob(deps), endExportOfFailedJob(deps)));
    await expect(job.waitUntilFinished(events, 25_000)).rejects.toThrow(/stalled/);
    const deadline = Date.now() + 10_000;
    let done = (await pipeline.deps.repos.exports.findById(
      pipeline.deps.repos.store.read(seed.userId),
      record.id,
    ))!;
    while (done.status !== 'error' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = (await pipeline.deps.repos.exports.findById(
        pipeline.deps.repos.store.read(seed.userId),
        record.id,
      ))!;
    }
    expect(done.status).toBe('error');
    expect(done.errorReason).toBe(
      'The export was interrupted several times (its worker stopped); please try again.',
    );
  }, 90_000);

  it('when workers start, then the cleanup and the push sender are one repeatable job each, however many workers register them', async () => {
    await scheduleRecurringJobs(config);
    await scheduleRecurringJobs(config);
    const schedulersOf = async (name: string) => {
      const own = new Queue(name, { connection, prefix: jobQueuePrefix(config) });
      try {
        return await own.getJobSchedulers();
      } finally {
        await own.close();
      }
    };
    const schedulers = [
      ...(await schedulersOf(EXPORT_CLEANUP_QUEUE_NAME)),
      ...(await schedulersOf(PUSH_DELIVERY_QUEUE_NAME)),
    ];
    expect(schedulers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: EXPORT_CLEANUP_JOB_ID,
          name: EXPORT_CLEANUP_JOB_NAME,
          every: 3600 * 1000,
        }),
        expect.objectContaining({ key: PUSH_SEND_JOB_ID, name: PUSH_SEND_JOB_NAME, every: 30 * 1000 }),
      ]),
    );
    expect(schedulers).toHaveLength(2);
  });
});
