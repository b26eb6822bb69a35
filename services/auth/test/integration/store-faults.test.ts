import {
  PrivatePostgres,
  PrivateRedis,
  startPrivatePostgres,
  startPrivateRedis,
  uniqueEmail,
} from '@pfs/testing';
import request from 'supertest';
import {
  AuthTestApp,
  createTestClient,
  createTestUser,
  isolatedRedisPrefix,
  startAuthTestApp,
  useAuthTestApp,
} from '../support/auth-test-app';
import { inputValue, obtainTokens } from '../support/browser-flow';

/**
 * The auth service's own answers to store outages and hostile input, over HTTP against the real app:
 * Postgres (a private cluster) or Redis (a private server) gone is 503 error.unavailable with Retry-After,
 * never 500, and the service recovers by itself once the store is back; U+0000 and malformed escapes are
 * 400 naming the field (invalid_request on the token endpoint, RFC 6749 §5.2), never 500.
 */

const password = 'correct horse battery';

interface Account {
  email: string;
  client: { client_id: string; client_secret: string };
  refreshToken: string;
}

/** A user, a client and a live refresh token, made while the stores are up. */
async function account(t: AuthTestApp): Promise<Account> {
  const email = uniqueEmail('store-faults');
  await createTestUser(t.deps, email, password);
  const client = await createTestClient(t.deps, { scope: 'user:r' });
  const tokens = await obtainTokens(t.app, client, { email, password });
  return { email, client, refreshToken: tokens.refresh_token };
}

const refresh = (t: AuthTestApp, a: Account) =>
  request(t.app)
    .post('/oauth2/token')
    .auth(a.client.client_id, a.client.client_secret)
    .type('form')
    .send({ grant_type: 'refresh_token', refresh_token: a.refreshToken });

/** Posts the sign-in page's form with its CSRF token (the GET needs no store). */
async function signIn(t: AuthTestApp, email: string) {
  const agent = request.agent(t.app);
  const page = await agent.get('/login').expect(200);
  return agent
    .post('/login')
    .type('form')
    .send({ email, password, csrf_token: inputValue(page.text, 'csrf_token') });
}

function expectUnavailable(answer: request.Response) {
  expect({ status: answer.status, error_id: answer.body.error_id }).toEqual({
    status: 503,
    error_id: 'error.unavailable',
  });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
}

/** Retries (the pool and the Redis client reconnect on their own) until the answer is no longer 503. */
async function untilRecovered(send: () => Promise<request.Response>): Promise<request.Response> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await send();
    if (answer.status !== 503 || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the auth service with its PostgreSQL stopped', () => {
  let cluster: PrivatePostgres;
  let t: AuthTestApp;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    t = await startAuthTestApp({
      DATABASE_URL: cluster.url('pfs_auth_fault'),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      REDIS_KEY_PREFIX: isolatedRedisPrefix('auth-pg-fault'),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.deps.close();
    await cluster?.destroy();
  });

  it('when Postgres is stopped, then the token endpoint and sign-in answer 503 with Retry-After; when it is back, they work again', async () => {
    const a = await account(t);
    await cluster.stop();
    expectUnavailable(await refresh(t, a));
    expectUnavailable(await signIn(t, a.email));
    await cluster.start();
    const token = await untilRecovered(() => refresh(t, a));
    expect(token.status).toBe(200);
    expect(token.body.access_token).toEqual(expect.any(String));
    expect((await untilRecovered(() => signIn(t, a.email))).status).toBe(303);
  }, 90_000);

  it('when Postgres crash-restarts under token requests, then each answer is 200 or 503 (never 500) and grants resume', async () => {
    const accounts = await Promise.all([account(t), account(t), account(t)]);
    const unexpected: unknown[] = [];
    const statuses = new Set<number>();
    let granted = 0;
    let running = true;
    const requester = async (a: Account) => {
      while (running) {
        const answer = await refresh(t, a);
        statuses.add(answer.status);
        if (answer.status === 200) {
          granted += 1;
          a.refreshToken = answer.body.refresh_token;
        } else if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
        else unexpected.push({ status: answer.status, body: answer.body });
      }
    };
    const requesters = accounts.map(requester);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await cluster.start();
    const before = granted;
    const deadline = Date.now() + 30_000;
    while (granted < before + 10 && Date.now() < deadline && !unexpected.length) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    running = false;
    await Promise.all(requesters);
    expect(unexpected.slice(0, 3)).toEqual([]);
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(granted).toBeGreaterThanOrEqual(before + 10);
  }, 90_000);
});

describe('the auth service with its Redis stopped', () => {
  let redis: PrivateRedis;
  let t: AuthTestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startAuthTestApp({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await t?.deps.close();
    await redis?.stop();
  });

  it('when Redis is stopped, then the token endpoint and sign-in answer 503 with Retry-After; when it is back (empty), they work again', async () => {
    const a = await account(t);
    await redis.stop();
    expectUnavailable(await refresh(t, a));
    expectUnavailable(await signIn(t, a.email));
    await redis.start();
    const token = await untilRecovered(() => refresh(t, a));
    expect(token.status).toBe(200);
    expect(token.body.access_token).toEqual(expect.any(String));
    expect((await untilRecovered(() => signIn(t, a.email))).status).toBe(303);
  }, 90_000);
});

describe('hostile input on the auth service', () => {
  const t = useAuthTestApp({ REDIS_KEY_PREFIX: isolatedRedisPrefix('auth-hostile') });
  const nul = 'a\u0000b';

  it.each([
    ['client_id', { grant_type: 'client_credentials', client_id: nul, client_secret: 's' }],
    ['username', { grant_type: 'password', client_id: 'c', username: nul, password: 'p' }],
    ['password', { grant_type: 'password', client_id: 'c', username: 'u', password: nul }],
    ['code', { grant_type: 'authorization_code', client_id: 'c', code: nul }],
    ['redirect_uri', { grant_type: 'authorization_code', client_id: 'c', code: 'x', redirect_uri: nul }],
  ])('when the token request has U+0000 in %s, then 400 invalid_request naming it', async (field, form) => {
    const answer = await request(t.app).post('/oauth2/token').type('form').send(form);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_request');
    expect(answer.body.error_description).toContain(field);
  });

  it.each(['email', 'password'])(
    'when the sign-in form has U+0000 in %s, then 400 error.input naming it',
    async (field) => {
      const form: Record<string, string> = { email: 'ada@example.test', password, csrf_token: 'x' };
      form[field] = nul;
      const answer = await request(t.app).post('/login').type('form').send(form);
      expect(answer.status).toBe(400);
      expect(answer.body.error_id).toBe('error.input');
      expect(answer.body.fields).toEqual([expect.objectContaining({ field })]);
    },
  );

  it('when the authorize query has a malformed percent-escape in a key, then 400 naming it', async () => {
    const answer = await request(t.app).get('/oauth2/authorize?%');
    expect(answer.status).toBe(400);
    expect(answer.body.error_id).toBe('error.input');
    expect(answer.body.fields).toEqual([expect.objectContaining({ field: '%' })]);
  });
});
