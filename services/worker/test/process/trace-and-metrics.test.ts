import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../../api/test/support/api-test-app';

/**
 * The export worker as a real process (its build) next to the API in-process, on a private queue: the trace
 * id a client sends on POST /exports is on the worker's log lines for that export, and the worker's metrics
 * port shows the job.
 */
const entry = join(__dirname, '../../dist/main.js');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('export worker process: trace propagation and metrics', () => {
  let storageDir: string;
  let env: Record<string, string>;
  let api: ApiTestApp;
  let worker: ChildProcess;
  let output = '';

  const lines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 25_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`no ${what}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'pfs-trace-'));
    env = {
      REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}trace-${Math.random().toString(36).slice(2, 8)}:`,
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: storageDir,
      EXPORT_LINK_SECRET: 'trace-test-export-link-secret',
    };
    api = await startApiTestApp(env);
    worker = spawn(process.execPath, [entry], {
      env: { ...process.env, ...env, LOG_LEVEL: 'info', WORKER_PORT: '0', WORKER_METRICS_PORT: '0' },
      stdio: 'pipe',
    });
    worker.stdout!.on('data', (chunk) => (output += chunk));
    worker.stderr!.on('data', (chunk) => (output += chunk));
    await waitFor(() => lines().find((line) => line.metricsUrl), 'metrics line');
  });

  afterAll(async () => {
    worker.kill('SIGTERM');
    await new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve)));
    await api.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('when POST /exports carries a traceparent, then the worker logs that export under the same trace id, and its metrics count the job', async () => {
    const user = await createTestUser(api.deps, 'user:rw entries:rw budgets:r');
    const answer = await request(api.app)
      .post('/exports')
      .set('Authorization', user.auth)
      .set('traceparent', `00-${TRACE_ID}-00f067aa0ba902b7-01`)
      .send({ type: 'export', resources: ['expenses'], formats: ['csv'] })
      .expect(201);
    const exportId = String(answer.headers.location).split('/').pop();
    const finished = await waitFor(
      () => lines().find((line) => line.exportId === exportId && line.msg === 'export job finished'),
      'finished export',
    );
    const ofExport = lines().filter((line) => line.exportId === exportId);
    expect(ofExport.length).toBeGreaterThanOrEqual(2);
    for (const line of ofExport) expect(line.traceId).toBe(TRACE_ID);
    expect(finished.traceId).toBe(TRACE_ID);
    // Lines of other work (start-up, other jobs) are not in this trace.
    expect(lines().find((line) => line.msg === 'worker running')?.traceId).toBeUndefined();

    const metricsUrl = String(lines().find((line) => line.metricsUrl)!.metricsUrl);
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toMatch(/^pfs_export_job_duration_seconds_count\{state="completed"\} [1-9]/m);
    expect(text).toMatch(/^pfs_export_queue_jobs\{state="waiting"\} \d+/m);
    expect(text).toMatch(/^pfs_dependency_up\{dependency="queue"\} 1/m);
  });

  it('when the traceparent is malformed, then the export gets a new trace of its own', async () => {
    const user = await createTestUser(api.deps, 'user:rw entries:rw budgets:r');
    const answer = await request(api.app)
      .post('/exports')
      .set('Authorization', user.auth)
      .set('traceparent', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)
      .send({ type: 'export', resources: ['expenses'], formats: ['csv'] })
      .expect(201);
    const exportId = String(answer.headers.location).split('/').pop();
    const finished = await waitFor(
      () => lines().find((line) => line.exportId === exportId && line.msg === 'export job finished'),
      'finished export',
    );
    expect(finished.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(finished.traceId).not.toBe('0'.repeat(32));
  });
});
