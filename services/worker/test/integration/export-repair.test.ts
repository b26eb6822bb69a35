import { EXPORT_JOB_NAME, EXPORT_QUEUE_NAME, exportJobId, exportRunJobId, queuePrefix } from '@pfs/contracts';
import { openExportJobQueue } from '@pfs/jobs';
import { createRedisClient } from '@pfs/redis';
import { testLogger } from '@pfs/testing';
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { oneFileAtATime } from '../../../../jest/one-file-at-a-time';
import { loadWorkerConfig } from '../../src/config';
import { createUserSlots } from '../../src/delivery/user-slots';
import { handleExportJob } from '../../src/processors/handle-export-job';
import {
  INTERRUPTED_REASON,
  repairUnfinishedExports,
} from '../../src/use-cases/repair-unfinished-exports.use-case';
import { startExportWorker } from '../../src/worker';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { LedgerSeed } from '../support/seed-ledger';

const prefix = `${process.env.REDIS_KEY_PREFIX}r-${randomBytes(3).toString('hex')}:`;
const config = loadWorkerConfig({
  ...process.env,
  REDIS_KEY_PREFIX: prefix,
  WORKER_STALLED_INTERVAL_MS: '500',
});
const connection = createRedisClient({ url: config.REDIS_URL, keyPrefix: '', forBlockingQueue: true });
const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: queuePrefix(prefix) });
const events = new QueueEvents(EXPORT_QUEUE_NAME, {
  connection: connection.duplicate(),
  prefix: queuePrefix(prefix),
});
const slotsRedis = createRedisClient({ url: config.REDIS_URL, keyPrefix: prefix, lazyConnect: false });
const enqueuer = openExportJobQueue(config);
// Takes jobs by hand, as a worker that dies before its handlers run would leave them.
const manual = new Worker(EXPORT_QUEUE_NAME, undefined, {
  connection: connection.duplicate(),
  prefix: queuePrefix(prefix),
  autorun: false,
});

let pipeline: TestPipeline;
const workers: Worker[] = [];

// The sweep acts on every user's unfinished exports in the shared database: this file and its run through
// PgBouncer (pooler/exports-through-pgbouncer.test.ts) would otherwise requeue or end each other's exports.
oneFileAtATime('export-repair');

beforeAll(async () => {
  pipeline = await createTestPipeline();
  await events.waitUntilReady();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  // A sweep requeues every aged export without a job, not only this test's: what a test's worker left
  // waiting must not be the next job the following test takes by hand.
  await queue.drain(true);
});
afterAll(async () => {
  await manual.close();
  await events.close();
  await enqueuer.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  slotsRedis.disconnect();
  await pipeline.close();
});

/** An export the API committed `age` ago, optionally with its job queued (run 0, as the API queues it). */
async function agedExport(seed: LedgerSeed, options: { queued: boolean; age?: string }) {
  const record = await pipeline.deps.repos.store.change(seed.userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: ['balances'],
      formats: ['csv'],
      filters: null,
      from: null,
      to: null,
    }),
  );
  await pipeline.dataSource.query(`UPDATE exports SET modified_at = now() - $2::interval WHERE id = $1`, [
    record.id,
    options.age ?? '1 hour',
  ]);
  if (options.queued)
    await queue.add(
      EXPORT_JOB_NAME,
      { version: 1, userId: seed.userId, exportId: record.id },
      {
        jobId: exportJobId(record.id),
        attempts: 1,
      },
    );
  return record;
}

/** Moves the next waiting job to active under `token`, checking it is the expected one. */
async function takeJob(exportId: string, token: string): Promise<Job> {
  const job = (await manual.getNextJob(token, { block: false }))!;
  expect(job.id).toBe(exportJobId(exportId));
  return job;
}

const statusOf = async (userId: string, id: string) =>
  (await pipeline.deps.repos.exports.findById(pipeline.deps.repos.store.read(userId), id))!;

describe('the sweep of unfinished exports', () => {
  it('when a job failed or completed without its handler ending the export, then the sweep ends it in error with a reason and a notification', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const stalled = await agedExport(seed, { queued: true });
    const stalledJob = await takeJob(stalled.id, 'dead-1');
    // What BullMQ does to a job stalled past maxStalledCount: failed, processor and handler never ran.
    await stalledJob.moveToFailed(new Error('job stalled more than allowable limit'), 'dead-1', false);
    const completed = await agedExport(seed, { queued: true });
    const completedJob = await takeJob(completed.id, 'dead-2');
    await completedJob.moveToCompleted('done', 'dead-2', false);
    expect(await stalledJob.getState()).toBe('failed');
    expect((await statusOf(seed.userId, stalled.id)).status).toBe('generating');

    const repaired = await repairUnfinishedExports(pipeline.deps, enqueuer);
    expect(repaired!.failed).toBeGreaterThanOrEqual(2);
    for (const record of [stalled, completed]) {
      expect(await statusOf(seed.userId, record.id)).toMatchObject({
        status: 'error',
        errorReason: INTERRUPTED_REASON,
      });
      // Ended, not re-run: no new job for it.
      expect(await Job.fromId(queue, exportRunJobId(record.id, 1))).toBeUndefined();
    }
    const notes = await pipeline.deps.repos.notifications.list(pipeline.deps.repos.store.read(seed.userId), {
      perPage: 10,
      offset: 0,
      includeDeleted: false,
    });
    expect(notes.items.map((note) => [note.action, note.exportId]).sort()).toEqual(
      [
        ['error', stalled.id],
        ['error', completed.id],
      ].sort(),
    );
  });

  it('when an export lost its job, then the sweep queues it again under a new run id and it is sent; a fresh one is left to its coming job', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const lost = await agedExport(seed, { queued: false });
    const fresh = await agedExport(seed, { queued: false, age: '1 second' });
    const repaired = await repairUnfinishedExports(pipeline.deps, enqueuer);
    expect(repaired!.requeued).toBeGreaterThanOrEqual(1);
    const deps = { ...pipeline.deps, slots: createUserSlots(slotsRedis, 1, 3_000) };
    workers.push(startExportWorker(config, testLogger(), handleExportJob(deps)));
    const job = (await Job.fromId(queue, exportRunJobId(lost.id, 1)))!;
    await job.waitUntilFinished(events, 15_000);
    expect((await statusOf(seed.userId, lost.id)).status).toBe('sent');
    expect(await Job.fromId(queue, exportJobId(lost.id))).toBeUndefined();
    expect(await Job.fromId(queue, exportRunJobId(fresh.id, 1))).toBeUndefined();
    expect((await statusOf(seed.userId, fresh.id)).status).toBe('generating');
  });

  it('when an old export has a live job (active or waiting), then the sweep leaves it alone', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const running = await agedExport(seed, { queued: true });
    const runningJob = await takeJob(running.id, 'alive');
    const waiting = await agedExport(seed, { queued: true });
    expect(await runningJob.getState()).toBe('active');

    await repairUnfinishedExports(pipeline.deps, enqueuer);
    for (const record of [running, waiting]) {
      expect((await statusOf(seed.userId, record.id)).status).toBe('generating');
      expect(await Job.fromId(queue, exportRunJobId(record.id, 1))).toBeUndefined();
    }
    expect(await runningJob.getState()).toBe('active');
    expect(await (await Job.fromId(queue, exportJobId(waiting.id)))!.getState()).toBe('waiting');
    await queue.remove(exportJobId(waiting.id));
    await runningJob.moveToFailed(new Error('test over'), 'alive', false);
  });

  it('when another worker is sweeping, then this one skips (one sweeper at a time)', async () => {
    // The other sweeper holds the lock as a sweep does: in an open transaction (transaction-level).
    const holder = pipeline.dataSource.createQueryRunner();
    try {
      await holder.startTransaction();
      await holder.query('SELECT pg_advisory_xact_lock(7302511)');
      expect(await repairUnfinishedExports(pipeline.deps, enqueuer)).toBeUndefined();
      await holder.rollbackTransaction();
      expect(await repairUnfinishedExports(pipeline.deps, enqueuer)).toBeDefined();
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });
});
