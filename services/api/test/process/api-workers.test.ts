import { join } from 'node:path';
import {
  isProcessAlive as alive,
  logLinesOf as lines,
  READINESS_PATH,
  ServiceProcess,
  startNodeProcess,
  waitForHealthy,
  waitForOutput,
} from '@pfs/testing';

/**
 * API_WORKERS=N: one container, N API processes behind one port (node:cluster). The primary forks them,
 * replaces one that dies, serves their summed metrics, and on SIGTERM lets each drain, then exits 0.
 */
const entry = join(__dirname, '../../dist/main.js');
// Three API processes start here, one after another's death: minutes on a loaded machine, not seconds.
jest.setTimeout(180_000);

const workerPids = (service: ServiceProcess) =>
  lines(service)
    .filter((line) => line.msg === 'api worker started')
    .map((line) => Number(line.pid));
const listening = (service: ServiceProcess) => lines(service).filter((line) => line.msg === 'api listening');

describe('API_WORKERS', () => {
  let api: ServiceProcess | undefined;
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });

  it('when set to 2, then two workers serve one port, a dead one is replaced, and SIGTERM stops them all', async () => {
    api = startNodeProcess([entry], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: process.env.DATABASE_URL!,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX!,
      API_PORT: '0',
      API_METRICS_PORT: '0',
      API_WORKERS: '2',
      REPEAT_MATERIALIZE_INTERVAL_SECONDS: '0',
    });
    const service = api;
    await waitForOutput(service, () => (listening(service).length === 2 ? true : undefined), 60_000);
    const urls = new Set(listening(service).map((line) => line.url));
    expect(urls.size).toBe(1);
    const [url] = [...urls];
    await waitForHealthy(service, `${url}${READINESS_PATH}`);
    const metricsUrl = await waitForOutput(
      service,
      () => lines(service).find((line) => line.metricsUrl)?.metricsUrl as string | undefined,
    );
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/^process_cpu_user_seconds_total \d/m);

    const [first, second] = workerPids(service);
    expect(alive(first) && alive(second)).toBe(true);
    process.kill(first, 'SIGKILL');
    await waitForOutput(service, () => (workerPids(service).length === 3 ? true : undefined), 60_000);
    expect(lines(service).find((line) => line.msg === 'api worker died')).toMatchObject({
      signal: 'SIGKILL',
    });
    await waitForOutput(service, () => (listening(service).length === 3 ? true : undefined), 60_000);
    expect((await fetch(`${url}${READINESS_PATH}`)).status).toBe(200);

    const third = workerPids(service)[2];
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect([second, third].filter(alive)).toEqual([]);
    expect(lines(service).filter((line) => line.msg === 'api stopped').length).toBeGreaterThanOrEqual(3);
  });
});
