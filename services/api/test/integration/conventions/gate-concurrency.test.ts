import request from 'supertest';
import { RequestGate } from '../../../src/middleware/request-gate';
import { createTestUser, startApiTestApp, type ApiTestApp } from '../../support/api-test-app';

/**
 * Many requests at once: their gate checks leave in the same event-loop turn and share one auto pipeline
 * (on a Redis Cluster, grouped by node: every key of one call must be routed with it). Each is counted once,
 * against its own user, and each answer is its own.
 */
let t: ApiTestApp;
beforeAll(async () => {
  // A day's window: the bucket does not turn during the test (it would weigh in the previous one).
  t = await startApiTestApp({ RATE_LIMIT_WINDOW_SECONDS: '86400' });
});
afterAll(() => t.close());

const tokenOf = (auth: string) => auth.replace(/^Bearer /, '');

it('when 40 gate checks of four users leave together, then each user is counted 10 times and sees its own profile', async () => {
  const users = await Promise.all(Array.from({ length: 4 }, () => createTestUser(t.deps)));
  // Fill each user's cached /me, so the checks read profiles as well as counters.
  for (const user of users) await request(t.app).get('/me').set('Authorization', user.auth).expect(200);
  const gate = new RequestGate(t.deps.redis, {
    keyPrefix: process.env.REDIS_KEY_PREFIX!,
    limit: 1_000,
    windowSeconds: 86_400,
  });
  const checks = Array.from({ length: 40 }, (_, i) => users[i % 4]);
  const results = await Promise.all(
    checks.map((user) => gate.check(tokenOf(user.auth), '127.0.0.1', { count: true, profile: true })),
  );
  users.forEach((user, u) => {
    const mine = results.filter((_, i) => i % 4 === u);
    expect(mine.every((result) => result.allowed && result.record?.sub === user.userId)).toBe(true);
    expect(mine.map((result) => result.remaining).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 10 }, (_, i) => 1_000 - 2 - i),
    );
    for (const result of mine) {
      expect(result.profile).toEqual({ cached: expect.any(String) });
      expect((result.profile as { cached: string }).cached).toContain(`"id":${JSON.stringify(user.userId)}`);
    }
  });
});
