import { accessTokenKey, hashToken, parseAccessTokenRecord } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import { approveInBrowser } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Spec "Authorization request" (response_type=token); RFC 6749 §4.2.2. */
describe('implicit grant', () => {
  const auth = useAuthTestApp();

  it('when a client registered for it is allowed, then the token comes in the fragment, without a refresh token', async () => {
    const email = uniqueEmail();
    const { user } = await createTestUser(auth.deps, email);
    const client = await createTestClient(auth.deps, { implicit: true, scope: 'user:r' });
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'token', client_id: client.client_id, state: 'imp' },
      email,
      password: 'correct horse battery',
    });
    expect(location.search).toBe('');
    const fragment = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
    expect(fragment).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: '3600',
      state: 'imp',
    });
    const record = parseAccessTokenRecord(
      await auth.deps.redis.get(accessTokenKey(hashToken(fragment.access_token))),
    );
    expect(record).toMatchObject({
      sub: user.id,
      client_id: client.client_id,
      scope: 'user:r',
      kind: 'access',
    });
    const stored = await auth.deps.dataSource.query(
      `SELECT kind FROM oauth_tokens WHERE grant_id = (SELECT grant_id FROM oauth_tokens WHERE token_hash = $1)`,
      [hashToken(fragment.access_token)],
    );
    expect(stored).toEqual([{ kind: 'access' }]);
  });

  it('when the user denies an implicit request, then access_denied comes in the fragment', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email);
    const client = await createTestClient(auth.deps, { implicit: true });
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'token', client_id: client.client_id, state: 'n' },
      email,
      password: 'correct horse battery',
      decision: 'deny',
    });
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('error')).toBe('access_denied');
    expect(fragment.get('state')).toBe('n');
  });
});
