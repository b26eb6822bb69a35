import { ConfigError } from '@pfs/config';
import request from 'supertest';
import { loadApiConfig } from '../../../src/config';
import { ApiTestApp, createTestUser, isolatedRedisPrefix, startApiTestApp } from '../../support/api-test-app';

const ALLOWED = 'http://127.0.0.2:5173';
const OTHER = 'https://evil.example';

/** Issue 14 point 8: CORS for browser apps on the origins of CORS_ORIGINS, preflight before authentication. */
describe('CORS on the API', () => {
  let api: ApiTestApp;
  beforeAll(async () => {
    api = await startApiTestApp({
      CORS_ORIGINS: ` ${ALLOWED} , https://app.example`,
      RATE_LIMIT_LIMIT: '3',
      REDIS_KEY_PREFIX: isolatedRedisPrefix('cors'),
    });
  });
  afterAll(async () => api?.close());

  const preflight = (origin: string, headers = 'authorization,if-match,idempotency-key,content-type') =>
    request(api.app)
      .options('/entries/123')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', headers);

  it('when an allowed origin sends a preflight without a token, then 204 names the origin, the methods and the headers', async () => {
    const answer = await preflight(ALLOWED).expect(204);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(answer.headers.vary).toMatch(/Origin/);
    expect(answer.headers['access-control-allow-methods'].split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
    );
    expect(answer.headers['access-control-allow-headers'].toLowerCase().split(',')).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'accept',
        'if-none-match',
        'if-match',
        'idempotency-key',
        'x-service-otp',
      ]),
    );
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('when preflights come before a call, then they spend none of the rate limit', async () => {
    const user = await createTestUser(api.deps, 'user:r');
    for (let i = 0; i < 5; i += 1) await preflight(ALLOWED).expect(204);
    const me = await request(api.app)
      .get('/me')
      .set('Origin', ALLOWED)
      .set('Authorization', user.auth)
      .expect(200);
    expect(me.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('when an allowed origin calls, then the answer names it and exposes the paging, sync, rate-limit and location headers', async () => {
    const user = await createTestUser(api.deps, 'user:r');
    const me = await request(api.app)
      .get('/me')
      .set('Origin', ALLOWED)
      .set('Authorization', user.auth)
      .expect(200);
    expect(me.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(me.headers['access-control-expose-headers'].split(',')).toEqual(
      expect.arrayContaining([
        'Link',
        'X-Total-Count',
        'Service-Modified',
        'ETag',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'Retry-After',
        'Location',
      ]),
    );
  });

  it('when an allowed origin calls without a token, then the 401 is readable by the page too', async () => {
    const answer = await request(api.app).get('/me').set('Origin', ALLOWED).expect(401);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('when an origin not in CORS_ORIGINS calls or sends a preflight, then no Access-Control-Allow-Origin', async () => {
    const user = await createTestUser(api.deps, 'user:r');
    const me = await request(api.app)
      .get('/me')
      .set('Origin', OTHER)
      .set('Authorization', user.auth)
      .expect(200);
    expect(me.headers['access-control-allow-origin']).toBeUndefined();
    const answer = await preflight(OTHER);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    // An origin differing only by port or by a trailing slash is another origin.
    const port = await preflight('http://127.0.0.2:5174');
    expect(port.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when CORS_ORIGINS is not set, then it allows no origin (the auth service test shows the answer over HTTP)', () => {
    const env = { ...process.env };
    delete env.CORS_ORIGINS;
    expect(loadApiConfig(env).CORS_ORIGINS).toEqual([]);
  });

  it('when CORS_ORIGINS holds something that is not an exact origin, then the config is refused naming it', () => {
    for (const value of ['https://app.example/', 'https://app.example/path', '*', 'HTTPS://APP.EXAMPLE']) {
      expect(() => loadApiConfig({ ...process.env, CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadApiConfig({ ...process.env, CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
    }
    expect(
      loadApiConfig({ ...process.env, CORS_ORIGINS: 'https://a.example,http://127.0.0.1:8080' }).CORS_ORIGINS,
    ).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
  });
});
