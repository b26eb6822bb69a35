import { EXPORT_QUEUE_NAME, exportJob, queuePrefix } from '@pfs/contracts';
import { openExportJobQueue, openJobQueue } from '@pfs/jobs';
import { createRedisClient } from '@pfs/redis';
import { Job, Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';

/** A Redis key prefix of its own for each use, so no test sees another's jobs. */
const configOfOwnPrefix = () => ({
  REDIS_URL: process.env.REDIS_URL!,
  REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}jobs-${randomBytes(3).toString('hex')}:`,
  REDIS_COMMAND_TIMEOUT_MS: 2_000,
  REDIS_CONNECT_TIMEOUT_MS: 5_000,
});

describe('the shared job producer', () => {
  const jobs = openJobQueue(exportJob, configOfOwnPrefix());
  afterAll(async () => {
    await jobs.queue.obliterate({ force: true });
    await jobs.close();
  });

  it('when a payload carries a field the contract does not name, then the queued job does not hold it', async () => {
    const payload = { version: 1 as const, exportId: '5', userId: '9', token: 'a-secret' };
    await jobs.add(payload, { jobId: 'strip-5' });
    const job = (await Job.fromId(jobs.queue, 'strip-5'))!;
    expect(job.data).toEqual({ version: 1, exportId: '5', userId: '9' });
  });

  it('when a payload breaks the contract, then nothing is queued and the caller gets the error', async () => {
    const bad = { version: 2, exportId: '6', userId: '9' } as unknown as Parameters<typeof jobs.add>[0];
    await expect(jobs.add(bad, { jobId: 'bad-6' })).rejects.toThrow(/version/);
    expect(await Job.fromId(jobs.queue, 'bad-6')).toBeUndefined();
  });

  it('when the API and the sweeper queue runs of an export, then both land on the exports queue as v1 jobs and the latest run is found', async () => {
    const config = configOfOwnPrefix();
    const exportJobs = openExportJobQueue(config);
    const connection = createRedisClient({ url: config.REDIS_URL, keyPrefix: '', forBlockingQueue: true });
    const queue = new Queue(EXPORT_QUEUE_NAME, { connection, prefix: queuePrefix(config.REDIS_KEY_PREFIX) });
    try {
      await exportJobs.enqueue('9', '7');
      expect(await exportJobs.latestRun('7')).toEqual({ run: 0, state: 'waiting', failedReason: undefined });
      await exportJobs.enqueue('9', '7', { run: 1 });
      expect(await exportJobs.latestRun('7')).toMatchObject({ run: 1, state: 'waiting' });
      const [first] = await queue.getJobs(['waiting'], 0, 0, true);
      expect(first.data).toEqual({ version: 1, exportId: '7', userId: '9' });
      expect(await exportJobs.jobCounts()).toMatchObject({ waiting: 2 });
      // Queued while serving a request: the job carries that request's trace (its span is the job's parent).
      const trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: '01' };
      await exportJobs.enqueue('9', '8', { trace });
      const [traced] = await queue.getJobs(['waiting'], 0, 0, false);
      expect(traced.data).toEqual({
        version: 1,
        exportId: '8',
        userId: '9',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      });
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
      await exportJobs.close();
    }
  });
});
