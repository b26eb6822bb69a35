import { dropDatabase } from '@pfs/resource-store';
import { testLogger } from '@pfs/testing';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { buildApiApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { createApiDependencies } from '../../src/dependencies';
import { buildAuthApp } from '../../../auth/src/app';
import { loadAuthConfig } from '../../../auth/src/config';
import { createAuthDependencies } from '../../../auth/src/dependencies';

/**
 * Both HTTP services answer the probes the same way: /health/live 200 whatever the dependencies do;
 * /health/ready (and the older /health) 200 when Postgres, Redis and migrations are fine, 503 naming what failed.
 */
describe.each([
  [
    'api',
    async () => {
      const deps = await createApiDependencies(loadApiConfig(process.env), testLogger());
      return { deps, app: buildApiApp(deps) };
    },
  ],
  [
    'auth',
    async () => {
      const deps = await createAuthDependencies(loadAuthConfig(process.env), testLogger());
      return { deps, app: buildAuthApp(deps) };
    },
  ],
])('%s health probes', (_name, start) => {
  it('when Postgres, Redis and migrations are fine, then ready and live answer 200 with each check ok', async () => {
    const { deps, app } = await start();
    try {
      const ok = { status: 'ok', checks: { postgres: 'ok', redis: 'ok', migrations: 'ok' }, failed: [] };
      expect((await request(app).get('/health/ready').expect(200)).body).toEqual(ok);
      expect((await request(app).get('/health').expect(200)).body).toEqual(ok);
      const live = await request(app).get('/health/live').expect(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers['cache-control']).toBe('no-store');
    } finally {
      await deps.close();
    }
  });

  it('when Redis is gone, then ready is 503 naming redis while live stays 200', async () => {
    const { deps, app } = await start();
    try {
      deps.redis.disconnect();
      const answer = await request(app).get('/health/ready').expect(503);
      expect(answer.body).toEqual({
        status: 'unavailable',
        checks: { postgres: 'ok', redis: 'unavailable', migrations: 'ok' },
        failed: ['redis'],
      });
      await request(app).get('/health/live').expect(200);
    } finally {
      await deps.close();
    }
  });

  it('when Postgres is gone, then 503 naming postgres', async () => {
    const { deps, app } = await start();
    try {
      await deps.dataSource.destroy();
      const answer = await request(app).get('/health/ready').expect(503);
      expect(answer.body.failed).toEqual(['postgres', 'migrations']);
      expect(answer.body.checks.redis).toBe('ok');
      await request(app).get('/health/live').expect(200);
    } finally {
      await deps.close();
    }
  });
});

describe('api readiness and migrations', () => {
  it('when the database misses a migration the code has, then ready is 503 naming migrations', async () => {
    // A private database: the run's shared one must keep its full history for every other test.
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/pfs_test_migrations_${randomBytes(4).toString('hex')}`;
    const deps = await createApiDependencies(
      loadApiConfig({ ...process.env, DATABASE_URL: url.toString() }),
      testLogger(),
    );
    try {
      const app = buildApiApp(deps);
      await request(app).get('/health/ready').expect(200);
      await deps.dataSource.query(
        'DELETE FROM resource_migrations WHERE id = (SELECT max(id) FROM resource_migrations)',
      );
      const answer = await request(app).get('/health/ready').expect(503);
      expect(answer.body).toMatchObject({ failed: ['migrations'], checks: { postgres: 'ok', redis: 'ok' } });
    } finally {
      await deps.close();
      await dropDatabase(url.toString());
    }
  });
});
