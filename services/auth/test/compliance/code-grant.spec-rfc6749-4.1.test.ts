import { accessTokenKey, hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { approveInBrowser, exchangeCode, pkcePair } from '../support/browser-flow';
import {
  AuthTestApp,
  createTestClient,
  createTestUser,
  startAuthTestApp,
  useAuthTestApp,
} from '../support/auth-test-app';

/** Spec "Access granted" rules 1–2 and the token request's redirect_uri rule; RFC 6749 §4.1.2, §4.1.3; RFC 7636. */
describe('authorization code grant', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  async function codeFor(
    app: AuthTestApp,
    client: { client_id: string },
    query: Record<string, string> = {},
  ) {
    const email = uniqueEmail();
    await createTestUser(app.deps, email, password);
    const { location } = await approveInBrowser(app.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id, ...query },
      email,
      password,
    });
    return location.searchParams.get('code')!;
  }

  async function pkceCodeFor(client: { client_id: string }) {
    const pkce = pkcePair();
    const query = { code_challenge: pkce.challenge, code_challenge_method: 'S256' };
    return { pkce, code: await codeFor(auth, client, query) };
  }

  /** PKCE instead of the secret (RFC 7636): the client names itself in the body only. */
  const exchangeWithoutSecret = (client: { client_id: string }, code: string, verifier: string) =>
    request(auth.app).post('/oauth2/token').type('form').send({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
    });

  const refresh = (client: { client_id: string; client_secret: string }, refreshToken: string) =>
    request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: refreshToken });

  it('when a code is used a second time, then invalid_grant and every token issued from it is revoked', async () => {
    const client = await createTestClient(auth.deps);
    const code = await codeFor(auth, client);
    const first = await exchangeCode(auth.app, client, { code }).expect(200);
    const recordKey = accessTokenKey(hashToken(first.body.access_token));
    expect(await auth.deps.redis.get(recordKey)).not.toBeNull();

    const second = await exchangeCode(auth.app, client, { code }).expect(400);
    expect(second.body.error).toBe('invalid_grant');
    expect(await auth.deps.redis.get(recordKey)).toBeNull();
    const refreshed = await refresh(client, first.body.refresh_token).expect(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('when the code is older than AUTH_CODE_TTL_SECONDS, then invalid_grant', async () => {
    const shortLived = await startAuthTestApp({ AUTH_CODE_TTL_SECONDS: '1' });
    try {
      const client = await createTestClient(shortLived.deps);
      const code = await codeFor(shortLived, client);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const answer = await exchangeCode(shortLived.app, client, { code }).expect(400);
      expect(answer.body).toEqual({
        error: 'invalid_grant',
        error_description: expect.stringContaining('expired'),
      });
    } finally {
      await shortLived.deps.close();
    }
  });

  it('when the code is used within the default 30 seconds, then it is accepted', async () => {
    expect(auth.deps.config.AUTH_CODE_TTL_SECONDS).toBe(30);
    const client = await createTestClient(auth.deps);
    const code = await codeFor(auth, client);
    const stored = await auth.deps.repos.codes.findByHash(hashToken(code));
    const lifetime = (stored!.expiresAt.getTime() - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(25);
    expect(lifetime).toBeLessThanOrEqual(30);
    await exchangeCode(auth.app, client, { code }).expect(200);
  });

  it('when redirect_uri was sent at authorize and is missing at the token step, then invalid_grant', async () => {
    const client = await createTestClient(auth.deps);
    const code = await codeFor(auth, client, { redirect_uri: 'https://client.example.test/callback' });
    const answer = await exchangeCode(auth.app, client, { code }).expect(400);
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('when redirect_uri differs from the one sent at authorize, then invalid_grant', async () => {
    const client = await createTestClient(auth.deps);
    const code = await codeFor(auth, client, { redirect_uri: 'https://client.example.test/callback' });
    const answer = await exchangeCode(auth.app, client, {
      code,
      redirect_uri: 'https://client.example.test/callback/',
    }).expect(400);
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('when redirect_uri was sent at authorize and repeated identically, then tokens', async () => {
    const client = await createTestClient(auth.deps);
    const redirectUri = 'https://client.example.test/callback';
    const code = await codeFor(auth, client, { redirect_uri: redirectUri });
    await exchangeCode(auth.app, client, { code, redirect_uri: redirectUri }).expect(200);
  });

  it('when redirect_uri was not sent at authorize, then the token step does not need it', async () => {
    const client = await createTestClient(auth.deps);
    await exchangeCode(auth.app, client, { code: await codeFor(auth, client) }).expect(200);
  });

  it('when PKCE S256 is used, then the right verifier buys tokens and a wrong one gets invalid_grant', async () => {
    const client = await createTestClient(auth.deps);
    const pkce = pkcePair();
    const pkceQuery = { code_challenge: pkce.challenge, code_challenge_method: 'S256' };
    const good = await codeFor(auth, client, pkceQuery);
    await exchangeCode(auth.app, client, { code: good, code_verifier: pkce.verifier }).expect(200);
    const bad = await codeFor(auth, client, pkceQuery);
    const answer = await exchangeCode(auth.app, client, {
      code: bad,
      code_verifier: pkcePair().verifier,
    }).expect(400);
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('when a wrong PKCE verifier or redirect_uri is sent, then the code is used up: the right ones get invalid_grant', async () => {
    const client = await createTestClient(auth.deps);
    const pkce = pkcePair();
    const redirectUri = 'https://client.example.test/callback';
    const query = {
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      redirect_uri: redirectUri,
    };
    const right = { code_verifier: pkce.verifier, redirect_uri: redirectUri };
    const guessed = await codeFor(auth, client, query);
    await exchangeCode(auth.app, client, {
      ...right,
      code: guessed,
      code_verifier: pkcePair().verifier,
    }).expect(400);
    const again = await exchangeCode(auth.app, client, { ...right, code: guessed }).expect(400);
    expect(again.body.error).toBe('invalid_grant');
    const misdirected = await codeFor(auth, client, query);
    await exchangeCode(auth.app, client, {
      ...right,
      code: misdirected,
      redirect_uri: `${redirectUri}/`,
    }).expect(400);
    await exchangeCode(auth.app, client, { ...right, code: misdirected }).expect(400);
  });

  it('when one code is exchanged twice at the same time, then only one exchange gets tokens', async () => {
    const client = await createTestClient(auth.deps);
    const { code, pkce } = await pkceCodeFor(client);
    const answers = await Promise.all(
      [1, 2].map(() => exchangeCode(auth.app, client, { code, code_verifier: pkce.verifier })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.error).toBe('invalid_grant');
  });

  it('when an implicit-capable client uses the code flow with PKCE, then tokens', async () => {
    const client = await createTestClient(auth.deps, { implicit: true });
    const { code, pkce } = await pkceCodeFor(client);
    await exchangeCode(auth.app, client, { code, code_verifier: pkce.verifier }).expect(200);
  });

  it('when a public client exchanges a code with PKCE and no secret, then tokens', async () => {
    const client = await createTestClient(auth.deps, { implicit: true });
    const { code, pkce } = await pkceCodeFor(client);
    await exchangeWithoutSecret(client, code, pkce.verifier).expect(200);
  });

  it('when a confidential client leaves out its secret, even with PKCE, then 401 invalid_client', async () => {
    const client = await createTestClient(auth.deps);
    const { code, pkce } = await pkceCodeFor(client);
    const answer = await exchangeWithoutSecret(client, code, pkce.verifier).expect(401);
    expect(answer.body.error).toBe('invalid_client');
    expect(answer.headers['www-authenticate']).toMatch(/^Basic/);
  });
});
