import { testLogger } from '@pfs/testing';
import request from 'supertest';
import { buildApiApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { createApiDependencies } from '../../src/dependencies';
import { buildAuthApp } from '../../../auth/src/app';
import { loadAuthConfig } from '../../../auth/src/config';
import { createAuthDependencies } from '../../../auth/src/dependencies';

/** Both HTTP services answer /health the same way: 200 when Postgres and Redis answer, 503 naming what failed. */
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
])('%s GET /health', (_name, start) => {
  it('when Postgres and Redis answer, then 200 with each check ok', async () => {
    const { deps, app } = await start();
    try {
      const answer = await request(app).get('/health').expect(200);
      expect(answer.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' }, failed: [] });
    } finally {
      await deps.close();
    }
  });

  it('when Redis is gone, then 503 naming redis', async () => {
    const { deps, app } = await start();
    try {
      deps.redis.disconnect();
      const answer = await request(app).get('/health').expect(503);
      expect(answer.body).toEqual({
        status: 'unavailable',
        checks: { postgres: 'ok', redis: 'unavailable' },
        failed: ['redis'],
      });
    } finally {
      await deps.close();
    }
  });

  it('when Postgres is gone, then 503 naming postgres', async () => {
    const { deps, app } = await start();
    try {
      await deps.dataSource.destroy();
      const answer = await request(app).get('/health').expect(503);
      expect(answer.body.failed).toEqual(['postgres']);
      expect(answer.body.checks.redis).toBe('ok');
    } finally {
      await deps.close();
    }
  });
});
