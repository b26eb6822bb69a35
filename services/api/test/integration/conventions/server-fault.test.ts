import { createDataSource, UserStore } from '@pfs/resource-store';
import { capturingLogger } from '@pfs/testing';
import request from 'supertest';
import { buildApiApp } from '../../../src/app';
import { apiRepositories } from '../../../src/dependencies';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../support/api-test-app';

describe('server faults', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp();
  });
  afterAll(() => t.close());

  it('when the database cannot be reached, then a 5xx with the request id and no internals, logged in the request trace', async () => {
    const user = await createTestUser(t.deps);
    const { logger, lines } = capturingLogger('api');
    // A real data source pointing at a port nothing listens on: every query fails inside pg.
    const unreachable = createDataSource({ url: 'postgres://postgres@127.0.0.1:1/pfs_nowhere' });
    const app = buildApiApp({
      ...t.deps,
      logger,
      dataSource: unreachable,
      store: new UserStore(unreachable),
      repos: apiRepositories(unreachable, async () => {}),
    });
    const answer = await request(app)
      .get('/categories')
      .set('Authorization', user.auth)
      .set('X-Request-Id', 'fault-1')
      .set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(answer.body).toEqual({
      error_id: 'error.internal',
      description: expect.stringContaining('request id'),
      request_id: 'fault-1',
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|pfs_nowhere|ECONNREFUSED|initialized/i);
    // The error middleware's line, written far from the request's first step, names the request's trace.
    expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({
      requestId: 'fault-1',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
  });
});
