import { accessTokenKey, generateToken, hashToken, personalTokenUsedKey } from '@pfs/contracts';
import request from 'supertest';
import { ApiTestApp, createTestUser, issueToken, startApiTestApp } from '../../support/api-test-app';

describe('authentication, scopes and rate limits', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    // A one-day window: a bucket boundary (which re-weights the count) never falls inside a test.
    t = await startApiTestApp({ RATE_LIMIT_LIMIT: '5', RATE_LIMIT_WINDOW_SECONDS: '86400' });
  });
  afterAll(() => t.close());

  it('when a personal token comes as Basic (token, empty password) or Bearer, then both authenticate and last use is recorded', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    const token = generateToken();
    const record = { sub: user.userId, scope: 'user:r', kind: 'personal', token_id: `pt-${user.userId}` };
    await t.deps.redis.set(accessTokenKey(hashToken(token)), JSON.stringify(record));
    const basic = Buffer.from(`${token}:`).toString('base64');
    await request(t.app).get('/me').set('Authorization', `Basic ${basic}`).expect(200);
    await request(t.app).get('/me').set('Authorization', `Bearer ${token}`).expect(200);
    const used = Number(await t.deps.redis.get(personalTokenUsedKey(`pt-${user.userId}`)));
    expect(Date.now() - used).toBeLessThan(10_000);
  });

  it('when credentials are missing, malformed or expired, then 401 with WWW-Authenticate', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    const expired = await issueToken(t.deps, user.userId, 'user:r', {
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    for (const header of [undefined, 'Bearer', 'Token abc', 'Bearer nope', expired.auth]) {
      const call = request(t.app).get('/me');
      if (header) call.set('Authorization', header);
      const answer = await call.expect(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="pfs"/);
      expect(answer.body.error_id).toBe('error.auth.unauthenticated');
    }
  });

  it('when scope is short, then 403 names it; rw implies r; entries implies tags', async () => {
    const user = await createTestUser(t.deps, 'categories:r');
    const denied = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .send({ name: 'x', type: 'expense' })
      .expect(403);
    expect(denied.body).toMatchObject({
      error_id: 'error.auth.scope',
      description: 'This request needs the categories:rw scope.',
    });
    const writer = await issueToken(t.deps, user.userId, 'categories:rw');
    await request(t.app).get('/categories').set('Authorization', writer.auth).expect(200);
    const entries = await issueToken(t.deps, user.userId, 'entries:rw');
    await request(t.app).get('/tags').set('Authorization', entries.auth).expect(200);
    await request(t.app)
      .post('/tags')
      .set('Authorization', entries.auth)
      .send({ name: 'e', type: 'expense' })
      .expect(201);
    await request(t.app).get('/categories').set('Authorization', entries.auth).expect(403);
  });

  it('when the limit is reached, then 429 with Retry-After; /rate-limit is not counted', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    const status = await request(t.app).get('/rate-limit').set('Authorization', user.auth).expect(200);
    expect(status.body).toEqual({ limit: 5, remaining: 5 });
    for (let i = 5; i >= 1; i--) {
      const answer = await request(t.app).get('/me').set('Authorization', user.auth).expect(200);
      expect(answer.headers['x-ratelimit-limit']).toBe('5');
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(i - 1));
    }
    const limited = await request(t.app).get('/me').set('Authorization', user.auth).expect(429);
    expect(limited.body.error_id).toBe('error.rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    const after = await request(t.app).get('/rate-limit').set('Authorization', user.auth).expect(200);
    expect(after.body).toEqual({ limit: 5, remaining: 0 });
    // Another application of the same user has its own budget.
    const otherApp = await issueToken(t.deps, user.userId, 'user:r', { client_id: 'another-app' });
    await request(t.app).get('/me').set('Authorization', otherApp.auth).expect(200);
  });

  it('when requests carry no valid token, then they are limited per client address, apart from users', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const anonymous = () => request(t.app).get('/me').set('X-Forwarded-For', ip);
    for (let i = 0; i < 5; i++) {
      const answer = await anonymous().expect(401);
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const limited = await anonymous().expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    await request(t.app).get('/me').set('X-Forwarded-For', ip).set('Authorization', user.auth).expect(200);
  });
});
