import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  freePort,
  READINESS_PATH,
  ServiceProcess,
  startNodeProcess,
  startPrivateRedisCluster,
  startTcpForwarder,
  waitForHealthy,
  waitForOutput,
} from '@pfs/testing';

/**
 * A Postgres or Redis that is not there yet at start is retried with backoff for STARTUP_RETRY_SECONDS
 * (containers start before their stores); past that the service exits 1 naming the variable.
 */
const repoRoot = join(__dirname, '../../../..');
const entryOf = (service: string) => join(repoRoot, `services/${service}/dist/main.js`);
const portVariables: Record<string, string> = {
  auth: 'AUTH_PORT',
  api: 'API_PORT',
  worker: 'WORKER_PORT',
};

function baseEnv(): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: process.env.DATABASE_URL!,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX!,
  };
}

function withPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.toString();
}

const listeningUrl = (output: string) => /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];

describe('a store unreachable at start', () => {
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it('when Postgres appears after a few seconds, then the api keeps trying and becomes ready', async () => {
    const port = await freePort();
    service = startNodeProcess([entryOf('api')], {
      ...baseEnv(),
      API_PORT: '0',
      STARTUP_RETRY_SECONDS: '30',
      DATABASE_URL: withPort(process.env.DATABASE_URL!, port),
    });
    await waitForOutput(service, (output) =>
      output.includes('DATABASE_URL: Postgres not reachable yet') ? true : undefined,
    );
    // The shared Postgres "comes up" on the port the service was given.
    const forwarder = await startTcpForwarder(port, 5432);
    try {
      const url = await waitForOutput(service, listeningUrl, 30_000);
      expect((await waitForHealthy(service, `${url}${READINESS_PATH}`)).status).toBe(200);
    } finally {
      await service.stop();
      await forwarder.close();
    }
  });

  it('when Redis appears after a few seconds, then the api keeps trying and becomes ready', async () => {
    const port = await freePort();
    service = startNodeProcess([entryOf('api')], {
      ...baseEnv(),
      API_PORT: '0',
      STARTUP_RETRY_SECONDS: '30',
      REDIS_URL: `redis://127.0.0.1:${port}/0`,
    });
    await waitForOutput(service, (output) =>
      output.includes('REDIS_URL: Redis not reachable yet') ? true : undefined,
    );
    // A private Redis on that port, never the shared one.
    const redis = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    try {
      const url = await waitForOutput(service, listeningUrl, 30_000);
      expect((await waitForHealthy(service, `${url}${READINESS_PATH}`)).status).toBe(200);
    } finally {
      await service.stop();
      redis.kill('SIGTERM');
    }
  });

  it('when the Redis Cluster appears after a few seconds, then the api keeps trying and becomes ready', async () => {
    const port = await freePort();
    service = startNodeProcess([entryOf('api')], {
      ...baseEnv(),
      API_PORT: '0',
      STARTUP_RETRY_SECONDS: '60',
      REDIS_CLUSTER_NODES: `127.0.0.1:${port}`,
    });
    await waitForOutput(service, (output) =>
      output.includes('REDIS_CLUSTER_NODES: Redis not reachable yet') ? true : undefined,
    );
    // A private cluster; the seed node the api was given forwards to one of its masters.
    const cluster = await startPrivateRedisCluster();
    const forwarder = await startTcpForwarder(port, cluster.ports[0]);
    try {
      const url = await waitForOutput(service, listeningUrl, 60_000);
      expect((await waitForHealthy(service, `${url}${READINESS_PATH}`)).status).toBe(200);
    } finally {
      await service.stop();
      await forwarder.close();
      await cluster.stop();
    }
  });

  it.each(Object.keys(portVariables))(
    'when Postgres stays away past STARTUP_RETRY_SECONDS, then %s exits 1 naming DATABASE_URL',
    async (name) => {
      const port = await freePort();
      const started = Date.now();
      service = startNodeProcess([entryOf(name)], {
        ...baseEnv(),
        [portVariables[name]]: '0',
        STARTUP_RETRY_SECONDS: '1',
        DATABASE_URL: withPort(process.env.DATABASE_URL!, port),
      });
      const { code } = await service.exited;
      expect(code).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(service.output()).toMatch(
        new RegExp(
          `${name} failed to start: DATABASE_URL: cannot reach Postgres after \\d+ attempt\\(s\\) in 1s`,
        ),
      );
      expect(service.output()).toContain('ECONNREFUSED');
    },
  );

  it.each(Object.keys(portVariables))(
    'when Redis stays away past STARTUP_RETRY_SECONDS, then %s exits 1 naming REDIS_URL',
    async (name) => {
      const port = await freePort();
      service = startNodeProcess([entryOf(name)], {
        ...baseEnv(),
        [portVariables[name]]: '0',
        STARTUP_RETRY_SECONDS: '1',
        REDIS_URL: `redis://127.0.0.1:${port}/0`,
      });
      const { code } = await service.exited;
      expect(code).toBe(1);
      expect(service.output()).toMatch(
        new RegExp(`${name} failed to start: REDIS_URL: cannot reach Redis after \\d+ attempt\\(s\\) in 1s`),
      );
    },
  );

  it('when DATABASE_URL is not a Postgres URL, then the api exits 1 at once stating the rule', async () => {
    service = startNodeProcess([entryOf('api')], {
      ...baseEnv(),
      API_PORT: '0',
      DATABASE_URL: 'mysql://pfs@127.0.0.1/pfs',
    });
    const { code } = await service.exited;
    expect(code).toBe(1);
    expect(service.output()).toContain(
      'DATABASE_URL: must start with postgres:// or postgresql:// (got "mysql://pfs@127.0.0.1/pfs")',
    );
  });
});
