import { accessTokenKey, grantTokensKey, hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { obtainTokens } from '../support/browser-flow';
import { AuthTestApp, createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Spec "Refresh parameters"; RFC 6749 §6; OAuth 2.0 Security BCP §4.14.2 (rotation with reuse detection). */
describe('refresh token rotation', () => {
  const password = 'correct horse battery';

  async function setUp(app: AuthTestApp) {
    const email = uniqueEmail();
    await createTestUser(app.deps, email, password);
    const client = await createTestClient(app.deps);
    const tokens = await obtainTokens(app.app, client, { email, password });
    const refresh = (refreshToken: string) =>
      request(app.app)
        .post('/oauth2/token')
        .auth(client.client_id, client.client_secret)
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: refreshToken });
    return { client, tokens, refresh };
  }

  describe('with the default grace period', () => {
    const auth = useAuthTestApp();

    it('when a client refreshes, then it gets a new access and refresh token without scope, and the API accepts the new one', async () => {
      const { tokens, refresh } = await setUp(auth);
      const answer = await refresh(tokens.refresh_token).expect(200);
      expect(answer.body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 3600,
        refresh_token: expect.any(String),
      });
      expect(answer.body.refresh_token).not.toBe(tokens.refresh_token);
      expect(await auth.deps.redis.get(accessTokenKey(hashToken(answer.body.access_token)))).not.toBeNull();
      // The grant's set of token hashes expires with its last token instead of piling up in Redis.
      const [row] = await auth.deps.dataSource.query(
        `SELECT grant_id FROM oauth_tokens WHERE token_hash = $1`,
        [hashToken(answer.body.access_token)],
      );
      const setTtl = await auth.deps.redis.ttl(grantTokensKey(String(row.grant_id)));
      expect(setTtl).toBeGreaterThan(3500);
      expect(setTtl).toBeLessThanOrEqual(3600);
    });

    it('when the old refresh token comes back within the grace period (a retry), then it still works', async () => {
      const { tokens, refresh } = await setUp(auth);
      const first = await refresh(tokens.refresh_token).expect(200);
      const retry = await refresh(tokens.refresh_token).expect(200);
      await refresh(first.body.refresh_token).expect(200);
      await refresh(retry.body.refresh_token).expect(200);
    });
  });

  describe('with no grace period', () => {
    const auth = useAuthTestApp({ AUTH_REFRESH_REUSE_GRACE_SECONDS: '0' });

    it('when a rotated refresh token is reused, then invalid_grant and the whole grant is revoked', async () => {
      const { tokens, refresh } = await setUp(auth);
      const rotated = await refresh(tokens.refresh_token).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reuse = await refresh(tokens.refresh_token).expect(400);
      expect(reuse.body.error).toBe('invalid_grant');
      // The thief's reuse ends the grant: the newest tokens stop working too.
      const next = await refresh(rotated.body.refresh_token).expect(400);
      expect(next.body.error).toBe('invalid_grant');
      expect(await auth.deps.redis.get(accessTokenKey(hashToken(rotated.body.access_token)))).toBeNull();
      expect(await auth.deps.redis.get(accessTokenKey(hashToken(tokens.access_token)))).toBeNull();
    });
  });
});
