import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { approveInBrowser, exchangeCode, obtainTokens } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Spec "Token error values" table; RFC 6749 §5.2. Each value is reached by a real request. */
describe('token endpoint errors', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  async function codeFor(client: { client_id: string }, query: Record<string, string> = {}) {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id, ...query },
      email,
      password,
    });
    return location.searchParams.get('code')!;
  }

  function expectOAuthError(answer: request.Response, status: number, error: string) {
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error, error_description: expect.any(String) });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['pragma']).toBe('no-cache');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  }

  it('when the code parameter is missing, then 400 invalid_request', async () => {
    const client = await createTestClient(auth.deps);
    expectOAuthError(await exchangeCode(auth.app, client, {}), 400, 'invalid_request');
  });

  it('when a parameter is repeated, then 400 invalid_request', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send('grant_type=authorization_code&code=a&code=b');
    expectOAuthError(answer, 400, 'invalid_request');
    expect(answer.body.error_description).toContain('code');
  });

  it('when the client authenticates twice (Basic and body), then 400 invalid_request', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await exchangeCode(auth.app, client, { code: 'x', client_secret: client.client_secret });
    expectOAuthError(answer, 400, 'invalid_request');
  });

  it('when the client secret is wrong, then 401 invalid_client with a Basic challenge', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await exchangeCode(auth.app, { ...client, client_secret: 'wrong' }, { code: 'x' });
    expectOAuthError(answer, 401, 'invalid_client');
    expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('when the client is unknown, then 401 invalid_client', async () => {
    const answer = await exchangeCode(auth.app, { client_id: 'nobody', client_secret: 's' }, { code: 'x' });
    expectOAuthError(answer, 401, 'invalid_client');
  });

  it('when the code is unknown, then 400 invalid_grant', async () => {
    const client = await createTestClient(auth.deps);
    expectOAuthError(await exchangeCode(auth.app, client, { code: 'not-a-code' }), 400, 'invalid_grant');
  });

  it('when the code was issued to another client, then 400 invalid_grant', async () => {
    const owner = await createTestClient(auth.deps);
    const other = await createTestClient(auth.deps);
    const code = await codeFor(owner);
    expectOAuthError(await exchangeCode(auth.app, other, { code }), 400, 'invalid_grant');
  });

  it('when the client may not use the grant type, then 400 unauthorized_client', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'client_credentials' });
    expectOAuthError(answer, 400, 'unauthorized_client');
  });

  it('when the grant type is unknown, then 400 unsupported_grant_type', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'urn:example:magic' });
    expectOAuthError(answer, 400, 'unsupported_grant_type');
  });

  it('when a refresh asks for a scope other than the one granted, then 400 invalid_scope and the refresh token still works', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, { scope: 'user:r entries:rw' });
    const tokens = await obtainTokens(auth.app, client, { email, password });
    const refresh = (form: Record<string, string>) =>
      request(auth.app)
        .post('/oauth2/token')
        .auth(client.client_id, client.client_secret)
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, ...form });
    expectOAuthError(await refresh({ scope: 'user:r' }), 400, 'invalid_scope');
    expectOAuthError(await refresh({ scope: 'user:r entries:rw budgets:r' }), 400, 'invalid_scope');
    const same = await refresh({ scope: 'entries:rw user:r' }).expect(200);
    expect(same.body.access_token).toEqual(expect.any(String));
  });

  it('when the body is not form-encoded, then 400 invalid_request', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .send({ grant_type: 'authorization_code', code: 'x' });
    expectOAuthError(answer, 400, 'invalid_request');
  });

  it('when the form cannot be read (too large, unknown charset), then 400 invalid_request as an OAuth error', async () => {
    const client = await createTestClient(auth.deps);
    const post = () => request(auth.app).post('/oauth2/token').auth(client.client_id, client.client_secret);
    const tooLarge = await post()
      .type('form')
      .send(`grant_type=authorization_code&code=${'x'.repeat(20_000)}`);
    expectOAuthError(tooLarge, 400, 'invalid_request');
    const charset = await post()
      .set('Content-Type', 'application/x-www-form-urlencoded; charset=ebcdic')
      .send('grant_type=authorization_code&code=x');
    expectOAuthError(charset, 400, 'invalid_request');
    expect(charset.body.error_description.toLowerCase()).not.toContain('ebcdic');
  });
});
