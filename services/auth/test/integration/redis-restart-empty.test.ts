import { accessTokenKey, hashToken } from '@pfs/contracts';
import { closeRedis, createRedisClient, Redis } from '@pfs/redis';
import { PrivateRedis, startPrivateRedis, testLogger, uniqueEmail } from '@pfs/testing';
import type { Express } from 'express';
import request from 'supertest';
import { buildApiApp } from '../../../api/src/app';
import { loadApiConfig } from '../../../api/src/config';
import { ApiDependencies, createApiDependencies } from '../../../api/src/dependencies';
import { createPersonalToken, revokePersonalToken } from '../../src/use-cases/personal-tokens.use-case';
import { AuthTestApp, createTestClient, createTestUser, startAuthTestApp } from '../support/auth-test-app';
import { obtainTokens } from '../support/browser-flow';

/**
 * Redis runs without persistence. When it restarts empty, the introspection records of live tokens are
 * gone; the API must find them in Postgres again (and revoked tokens must stay revoked).
 */
describe('a private Redis restarted empty, seen through the auth service and the API', () => {
  let redis: PrivateRedis;
  let auth: AuthTestApp;
  let apiDeps: ApiDependencies;
  let api: Express;
  let probe: Redis;
  const password = 'correct horse battery';

  beforeAll(async () => {
    redis = await startPrivateRedis();
    const env = { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '500' };
    auth = await startAuthTestApp(env);
    apiDeps = await createApiDependencies(loadApiConfig({ ...process.env, ...env }), testLogger());
    api = buildApiApp(apiDeps);
    probe = createRedisClient({
      url: redis.url,
      keyPrefix: process.env.REDIS_KEY_PREFIX!,
      lazyConnect: false,
    });
    probe.on('error', () => undefined);
  });
  afterAll(async () => {
    await closeRedis(probe);
    await apiDeps.close();
    await auth.deps.close();
    await redis.stop();
  });

  async function liveTokens() {
    const email = uniqueEmail('empty-redis');
    const { user } = await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, { scope: 'user:r' });
    const oauth = await obtainTokens(auth.app, client, { email, password });
    const personal = await createPersonalToken(auth.deps, { userId: user.id, name: 'script' });
    return { userId: user.id, access: oauth.access_token, personal };
  }

  const me = (token: string) => request(api).get('/me').set('Authorization', `Bearer ${token}`);

  /** Waits until the API's Redis client has reconnected after a restart, then answers for `token`. */
  async function meAfterReconnect(token: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await me(token);
      if (answer.status !== 503 || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const runIdOf = (info: string) => /run_id:(\w+)/.exec(info)?.[1];

  /**
   * A real restart with nothing kept. Other clients (the services' own) may write a key as soon as they reconnect,
   * so "empty" is proven by a new server run id and no token records, not by DBSIZE.
   */
  async function restartEmpty(tokens: string[]) {
    const before = runIdOf(await probe.info('server'));
    await redis.stop();
    await redis.start();
    // The probe reconnects on its own backoff; until then its commands fail fast. Ready, not only connected:
    // ioredis sends INFO (a command allowed while Redis loads) before its ready check ends, but refuses
    // EXISTS until then, and under load the EXISTS below once came in between.
    let after: string | undefined;
    while (after === undefined) {
      if (probe.status === 'ready') after = await probe.info('server').then(runIdOf, () => undefined);
      if (after === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after).not.toBe(before);
    for (const token of tokens) expect(await probe.exists(accessTokenKey(hashToken(token)))).toBe(0);
  }

  it('when Redis restarts empty, then access and personal tokens still work and their records are re-warmed', async () => {
    const tokens = await liveTokens();
    await me(tokens.access).expect(200);
    await me(tokens.personal.token).expect(200);
    await restartEmpty([tokens.access, tokens.personal.token]);

    expect((await meAfterReconnect(tokens.access)).status).toBe(200);
    expect((await me(tokens.personal.token)).status).toBe(200);
    const rewarmed = JSON.parse((await probe.get(accessTokenKey(hashToken(tokens.access))))!);
    expect(rewarmed).toMatchObject({ sub: tokens.userId, kind: 'access', scope: 'user:r' });
    expect(await probe.ttl(accessTokenKey(hashToken(tokens.access)))).toBeGreaterThan(0);
    expect(JSON.parse((await probe.get(accessTokenKey(hashToken(tokens.personal.token))))!)).toMatchObject({
      sub: tokens.userId,
      kind: 'personal',
      token_id: tokens.personal.id,
    });
  });

  it('when FLUSHALL empties Redis (a stand-in for a restart), then tokens still work', async () => {
    const tokens = await liveTokens();
    await probe.flushall();
    await me(tokens.access).expect(200);
    await me(tokens.personal.token).expect(200);
  });

  it('when a token is revoked, then it stays refused across an empty restart (no resurrection by the fallback)', async () => {
    const tokens = await liveTokens();
    await me(tokens.personal.token).expect(200);
    await revokePersonalToken(auth.deps, { userId: tokens.userId, tokenId: tokens.personal.id });
    await me(tokens.personal.token).expect(401);
    await request(auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', `Bearer ${tokens.access}`)
      .type('form')
      .send({})
      .expect((answer) => expect(answer.status).toBeLessThan(500));
    await restartEmpty([tokens.personal.token]);
    expect((await meAfterReconnect(tokens.personal.token)).status).toBe(401);
    expect(await probe.exists(accessTokenKey(hashToken(tokens.personal.token)))).toBe(0);
  });

  it('when a token is revoked while its record is being re-warmed, then the record does not come back', async () => {
    const tokens = await liveTokens();
    await probe.flushall();
    // Revocation and the fallback race; whichever order they take, the token must end refused.
    await Promise.all([
      me(tokens.personal.token),
      revokePersonalToken(auth.deps, { userId: tokens.userId, tokenId: tokens.personal.id }),
    ]);
    await me(tokens.personal.token).expect(401);
    expect(await probe.exists(accessTokenKey(hashToken(tokens.personal.token)))).toBe(0);
  });

  it('when a token Postgres does not know is sent, then 401 (and Redis gets no record for it)', async () => {
    const garbage = 'pfs_pt_not-a-real-token';
    await me(garbage).expect(401);
    await me(garbage).expect(401);
    expect(await probe.exists(accessTokenKey(hashToken(garbage)))).toBe(0);
  });
});
