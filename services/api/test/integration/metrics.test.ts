import { startMetricsServer, RunningHttpServer } from '@pfs/http';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { obtainTokens } from '../../../auth/test/support/browser-flow';
import {
  createTestClient,
  createTestUser as createAuthUser,
  useAuthTestApp,
} from '../../../auth/test/support/auth-test-app';
import { createTestUser, isolatedRedisPrefix, startApiTestApp } from '../support/api-test-app';

/** Reads one sample of a Prometheus text exposition (0 when the series does not exist yet). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** GET /metrics lives on its own port; the services' public ports do not serve it. */
describe('metrics', () => {
  let metrics: RunningHttpServer;
  const scrape = async () => {
    const answer = await fetch(`${metrics.url}/metrics`);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text();
  };
  const auth = useAuthTestApp();

  beforeAll(async () => {
    metrics = await startMetricsServer({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => metrics.stop());

  it('when the API serves requests, then counts and latencies move per route template and status, never per raw path', async () => {
    const api = await startApiTestApp({
      RATE_LIMIT_LIMIT: '3',
      REDIS_KEY_PREFIX: isolatedRedisPrefix('metrics'),
    });
    try {
      const user = await createTestUser(api.deps, 'user:r accounts:r');
      const me = 'pfs_http_request_duration_seconds_count{method="GET",route="/me",status="200"}';
      const account =
        'pfs_http_request_duration_seconds_count{method="GET",route="/accounts/:id",status="404"}';
      const refused = 'pfs_rate_limit_refusals_total{limit="api"}';
      const before = await scrape();
      await request(api.app).get('/me').set('Authorization', user.auth).expect(200);
      await request(api.app).get('/me').set('Authorization', user.auth).expect(200);
      await request(api.app).get('/accounts/424242').set('Authorization', user.auth).expect(404);
      await request(api.app).get('/me').set('Authorization', user.auth).expect(429);
      await new Promise((resolve) => setImmediate(resolve));
      const after = await scrape();
      expect(sample(after, me) - sample(before, me)).toBe(2);
      expect(sample(after, account) - sample(before, account)).toBe(1);
      expect(sample(after, refused) - sample(before, refused)).toBe(1);
      expect(after).not.toContain('424242');
      expect(after).toMatch(
        /pfs_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/me",status="200"\}/,
      );
      expect(sample(after, 'pfs_dependency_up{dependency="postgres"}')).toBe(1);
      expect(sample(after, 'pfs_dependency_up{dependency="redis"}')).toBe(1);
      expect(sample(after, 'pfs_dependency_up{dependency="migrations"}')).toBe(1);
      expect(sample(after, 'pfs_postgres_pool_connections{state="total"}')).toBeGreaterThan(0);
      expect(after).toContain('process_cpu_user_seconds_total');
      expect(after).toContain('nodejs_eventloop_lag_seconds');
      // Not served on the public port: it is an unknown, authenticated path there.
      await request(api.app).get('/metrics').expect(401);
      api.deps.redis.disconnect();
      expect(sample(await scrape(), 'pfs_dependency_up{dependency="redis"}')).toBe(0);
    } finally {
      await api.close();
    }
  });

  it('when the token endpoint grants and refuses, then grants are counted by grant type and error', async () => {
    const granted = 'pfs_token_requests_total{grant_type="authorization_code",result="granted"}';
    const refused = 'pfs_token_requests_total{grant_type="refresh_token",result="invalid_grant"}';
    const before = await scrape();
    const email = uniqueEmail('metrics');
    await createAuthUser(auth.deps, email, 'correct horse battery');
    const client = await createTestClient(auth.deps);
    await obtainTokens(auth.app, client, { email, password: 'correct horse battery' });
    await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: 'not-a-refresh-token' })
      .expect(400);
    const after = await scrape();
    expect(sample(after, granted) - sample(before, granted)).toBe(1);
    expect(sample(after, refused) - sample(before, refused)).toBe(1);
    expect(after).not.toContain(client.client_id);
    await request(auth.app).get('/metrics').expect(404);
  });
});
