import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { approveInBrowser, inputValue, pkcePair } from '../support/browser-flow';
import { createTestClient, createTestUser, startAuthTestApp, useAuthTestApp } from '../support/auth-test-app';

/** Spec "Authorization request" and "Authorization errors"; RFC 6749 §4.1.2.1, §4.2.2.1; RFC 7636. */
describe('authorization request errors', () => {
  const auth = useAuthTestApp();
  const callback = 'https://client.example.test/callback';

  async function authorize(query: string) {
    const answer = await request(auth.app).get(`/oauth2/authorize?${query}`).expect(302);
    return new URL(answer.headers.location);
  }

  it('when response_type is missing, then invalid_request is redirected with the state', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(`client_id=${client.client_id}&state=s1`);
    expect(`${location.origin}${location.pathname}`).toBe(callback);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s1');
  });

  it('when a parameter is repeated, then invalid_request', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(
      `client_id=${client.client_id}&response_type=code&scope=user:r&scope=user:r&state=x`,
    );
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('scope');
    expect(location.searchParams.get('state')).toBe('x');
  });

  it('when response_type is neither code nor token, then unsupported_response_type', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(`client_id=${client.client_id}&response_type=id_token&state=s`);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('when a client not registered for it asks for the implicit grant, then unauthorized_client in the fragment', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(`client_id=${client.client_id}&response_type=token&state=s2`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('error')).toBe('unauthorized_client');
    expect(fragment.get('state')).toBe('s2');
    expect(location.search).toBe('');
  });

  it('when the scope is unknown, or differs from the registered one, then invalid_scope', async () => {
    const client = await createTestClient(auth.deps, { scope: 'user:r entries:rw' });
    const unknown = await authorize(`client_id=${client.client_id}&response_type=code&scope=money:all`);
    expect(unknown.searchParams.get('error')).toBe('invalid_scope');
    const narrower = await authorize(`client_id=${client.client_id}&response_type=code&scope=user:r`);
    expect(narrower.searchParams.get('error')).toBe('invalid_scope');
  });

  it('when the scope equals the registered one in another order, then the consent flow proceeds', async () => {
    const client = await createTestClient(auth.deps, { scope: 'user:r entries:rw' });
    const answer = await request(auth.app)
      .get(`/oauth2/authorize?client_id=${client.client_id}&response_type=code&scope=entries:rw%20user:r`)
      .expect(302);
    expect(answer.headers.location).toMatch(/^\/login\?return_to=/);
  });

  it('when the user denies, then access_denied', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email);
    const client = await createTestClient(auth.deps);
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id, state: 'deny-me' },
      email,
      password: 'correct horse battery',
      decision: 'deny',
    });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('deny-me');
  });

  it('when the account disappears between consent and the decision, then server_error reaches the client', async () => {
    const email = uniqueEmail();
    const { user } = await createTestUser(auth.deps, email);
    const client = await createTestClient(auth.deps);
    const agent = request.agent(auth.app);
    const first = await agent.get(
      `/oauth2/authorize?response_type=code&client_id=${client.client_id}&state=z`,
    );
    const signIn = await agent.get(first.headers.location);
    const signedIn = await agent
      .post('/login')
      .type('form')
      .send({
        email,
        password: 'correct horse battery',
        csrf_token: inputValue(signIn.text, 'csrf_token'),
        return_to: inputValue(signIn.text, 'return_to'),
      });
    const consent = await agent.get(signedIn.headers.location).expect(200);
    await auth.deps.dataSource.query('DELETE FROM users WHERE id = $1', [user.id]);
    const decision = await agent
      .post('/oauth2/authorize')
      .type('form')
      .send({
        decision: 'allow',
        csrf_token: inputValue(consent.text, 'csrf_token'),
        client_id: client.client_id,
        response_type: 'code',
        state: 'z',
      })
      .expect(302);
    const location = new URL(decision.headers.location);
    expect(location.searchParams.get('error')).toBe('server_error');
    expect(location.searchParams.get('state')).toBe('z');
  });

  it('when the client is over its request budget, then temporarily_unavailable', async () => {
    const limited = await startAuthTestApp({ AUTH_AUTHORIZE_MAX_REQUESTS_PER_IP: '2' });
    try {
      await limited.deps.redis.del(
        'ratelimit:authorize-ip:::ffff:127.0.0.1',
        'ratelimit:authorize-ip:127.0.0.1',
      );
      const client = await createTestClient(limited.deps);
      const path = `/oauth2/authorize?client_id=${client.client_id}&response_type=code&state=busy`;
      await request(limited.app).get(path).expect(302);
      await request(limited.app).get(path).expect(302);
      const third = await request(limited.app).get(path).expect(302);
      const location = new URL(third.headers.location);
      expect(location.searchParams.get('error')).toBe('temporarily_unavailable');
      expect(location.searchParams.get('state')).toBe('busy');
    } finally {
      await limited.deps.redis.del(
        'ratelimit:authorize-ip:::ffff:127.0.0.1',
        'ratelimit:authorize-ip:127.0.0.1',
      );
      await limited.deps.close();
    }
  });

  it('when state is longer than 255 characters, then it comes back truncated to 255', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(
      `client_id=${client.client_id}&response_type=nope&state=${'s'.repeat(400)}`,
    );
    expect(location.searchParams.get('state')).toBe('s'.repeat(255));
  });

  it('when the redirect_uri differs from the registered one, then an error page and no redirect', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await request(auth.app)
      .get(
        `/oauth2/authorize?client_id=${client.client_id}&response_type=code&redirect_uri=https://evil.example/cb`,
      )
      .expect(400);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.text).toContain('redirect_uri does not match');
  });

  it('when client_id is missing, then an error page', async () => {
    const answer = await request(auth.app).get('/oauth2/authorize?response_type=code').expect(400);
    expect(answer.headers.location).toBeUndefined();
  });

  it('when a client registered for the implicit grant uses the code flow without PKCE, then invalid_request', async () => {
    const client = await createTestClient(auth.deps, { implicit: true });
    const location = await authorize(`client_id=${client.client_id}&response_type=code`);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('PKCE');
  });

  it('when PKCE uses the plain method, then invalid_request (only S256 is accepted)', async () => {
    const client = await createTestClient(auth.deps);
    const { verifier } = pkcePair();
    const location = await authorize(
      `client_id=${client.client_id}&response_type=code&code_challenge=${verifier}&code_challenge_method=plain`,
    );
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('S256');
  });
});
