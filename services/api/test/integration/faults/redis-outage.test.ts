import { generateToken, hashToken } from '@pfs/contracts';
import { PrivateRedis, startPrivateRedis } from '@pfs/testing';
import request from 'supertest';
import { ApiTestApp, startApiTestApp } from '../../support/api-test-app';

const COMMAND_TIMEOUT_MS = 400;

/** A private Redis the test stops, freezes and restarts; the API must answer 503, never 500 or hang. */
describe('Redis outages seen by the API', () => {
  let redis: PrivateRedis;
  let t: ApiTestApp;
  let auth: string;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startApiTestApp({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) });
    // A personal token as the auth service stores it (Postgres), so it survives an empty Redis.
    const user = await t.deps.users.create({
      email: `outage-${generateToken(6)}@example.test`,
      firstName: 'Ada',
    });
    const token = generateToken();
    await t.deps.dataSource.query(
      `INSERT INTO oauth_tokens (token_hash, kind, user_id, scope, name) VALUES ($1, 'personal', $2, $3, 'outage')`,
      [hashToken(token), user.id, 'categories:rw user:rw'],
    );
    auth = `Bearer ${token}`;
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  const categories = () => request(t.app).get('/categories').set('Authorization', auth);

  async function untilRecovered() {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await categories();
      if (answer.status !== 503 || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const expectUnavailable = (answer: request.Response) => {
    expect(answer.status).toBe(503);
    expect(answer.body.error_id).toBe('error.unavailable');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('when Redis is stopped, then 503 error.unavailable with Retry-After; when it is back (empty), then 200 again', async () => {
    await categories().expect(200);
    await redis.stop();
    for (let attempt = 0; attempt < 3; attempt += 1) expectUnavailable(await categories());
    await request(t.app)
      .post('/categories')
      .set('Authorization', auth)
      .send({ name: 'x', type: 'expense' })
      .expect(503);
    await redis.start();
    expect((await untilRecovered()).status).toBe(200);
  });

  it('when Redis is frozen (SIGSTOP), then 503 within the command timeout instead of a hang; after SIGCONT, 200', async () => {
    await untilRecovered();
    redis.freeze();
    try {
      const started = Date.now();
      const answers = await Promise.all([
        categories(),
        categories(),
        request(t.app).get('/me').set('Authorization', auth),
      ]);
      const elapsed = Date.now() - started;
      answers.forEach(expectUnavailable);
      // Generous for a loaded machine; a hang would last until SIGCONT, i.e. forever here.
      expect(elapsed).toBeLessThan(10_000);
    } finally {
      redis.thaw();
    }
    expect((await untilRecovered()).status).toBe(200);
  });
});
