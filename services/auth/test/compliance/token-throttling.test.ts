import request from 'supertest';
import { exchangeCode } from '../support/browser-flow';
import {
  AuthTestApp,
  createTestClient,
  isolatedRedisPrefix,
  startAuthTestApp,
} from '../support/auth-test-app';

/** Beyond the spec: brute-force limits on the token endpoint (429 + Retry-After, RFC 6585 §4). */
describe('token endpoint throttling', () => {
  let auth: AuthTestApp;
  const ipKeys = ['ratelimit:token-ip:::ffff:127.0.0.1', 'ratelimit:token-ip:127.0.0.1'];

  beforeAll(async () => {
    auth = await startAuthTestApp({
      AUTH_TOKEN_MAX_FAILURES_PER_CLIENT: '3',
      AUTH_TOKEN_MAX_REQUESTS_PER_IP: '1000',
    });
  });
  afterAll(async () => {
    await auth.deps.redis.del(...ipKeys);
    await auth.deps.close();
  });

  it('when a client keeps sending bad codes, then after the limit it gets 429 with Retry-After', async () => {
    const client = await createTestClient(auth.deps);
    for (let i = 0; i < 3; i += 1) {
      expect((await exchangeCode(auth.app, client, { code: `guess-${i}` }).expect(400)).body.error).toBe(
        'invalid_grant',
      );
    }
    const blocked = await exchangeCode(auth.app, client, { code: 'guess-4' }).expect(429);
    expect(blocked.body).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected.
    const other = await createTestClient(auth.deps);
    await exchangeCode(auth.app, other, { code: 'guess' }).expect(400);
  });

  it('when someone guesses a client secret repeatedly, then that client id is throttled', async () => {
    const client = await createTestClient(auth.deps);
    for (let i = 0; i < 3; i += 1) {
      await exchangeCode(auth.app, { ...client, client_secret: `wrong-${i}` }, { code: 'x' }).expect(401);
    }
    await exchangeCode(auth.app, client, { code: 'x' }).expect(429);
  });

  it('when secret guesses spell the client id in other form-encodings, then they still count against that one client', async () => {
    const client = await createTestClient(auth.deps);
    const id = client.client_id;
    // Each spelling form-decodes to the same id (RFC 6749 §2.3.1), so each reaches the same client's secret.
    const hex = (char: string) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    const spellings = [
      `${hex(id[0])}${id.slice(1)}`,
      `${id.slice(0, -1)}${hex(id.at(-1)!)}`,
      `${hex(id[0]).toLowerCase()}${id.slice(1)}`,
    ];
    for (const spelling of spellings) {
      await request(auth.app)
        .post('/oauth2/token')
        .set('Authorization', `Basic ${Buffer.from(`${spelling}:wrong-secret`).toString('base64')}`)
        .type('form')
        .send({ grant_type: 'authorization_code', code: 'x' })
        .expect(401);
    }
    await exchangeCode(auth.app, client, { code: 'x' }).expect(429);
  });

  it('when one IP sends more requests than allowed, then 429', async () => {
    // A prefix of its own: the other files of the run send token requests from loopback at the same time.
    const limited = await startAuthTestApp({
      AUTH_TOKEN_MAX_REQUESTS_PER_IP: '2',
      REDIS_KEY_PREFIX: isolatedRedisPrefix('token-ip-limit'),
    });
    try {
      await limited.deps.redis.del(...ipKeys);
      const send = () =>
        request(limited.app).post('/oauth2/token').type('form').send({ grant_type: 'refresh_token' });
      // No client credentials: invalid_client, but each request still counts against the IP.
      await send().expect(401);
      await send().expect(401);
      const third = await send().expect(429);
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await limited.deps.redis.del(...ipKeys);
      await limited.deps.close();
    }
  });
});
