import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { approveInBrowser, inputValue, pkcePair, signedInAgent } from '../support/browser-flow';
import {
  createTestClient,
  createTestUser,
  isolatedRedisPrefix,
  useAuthTestApp,
} from '../support/auth-test-app';

/** RFC 7591 Dynamic Client Registration, as assistants connecting over MCP use it (docs/mcp.md). */
describe('dynamic client registration (RFC 7591)', () => {
  const auth = useAuthTestApp({
    REDIS_KEY_PREFIX: isolatedRedisPrefix('dcr'),
    BASE_URL: 'http://api.example.test',
  });
  const password = 'correct horse battery';
  const redirectUri = 'http://127.0.0.1:43123/callback';

  const register = (body: unknown) =>
    request(auth.app)
      .post('/oauth2/register')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  async function registeredClient(extra: Record<string, unknown> = {}) {
    const answer = await register({
      client_name: 'Test assistant',
      redirect_uris: [redirectUri],
      ...extra,
    }).expect(201);
    return answer.body as { client_id: string; scope: string; redirect_uris: string[] };
  }

  /** Consent as a signed-in user, then the code exchange with PKCE and no secret. */
  async function authorize(clientId: string, email: string, query: Record<string, string> = {}) {
    const { verifier, challenge } = pkcePair();
    const { location, agent } = await approveInBrowser(auth.app, {
      authorizeQuery: {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st',
        ...query,
      },
      email,
      password,
    });
    const code = location.searchParams.get('code');
    return { location, agent, verifier, code };
  }

  const exchange = (form: Record<string, string>) =>
    request(auth.app)
      .post('/oauth2/token')
      .type('form')
      .send({ grant_type: 'authorization_code', redirect_uri: redirectUri, ...form });

  it('when the metadata is read, then it names the registration endpoint and S256', async () => {
    const answer = await request(auth.app).get('/.well-known/oauth-authorization-server').expect(200);
    expect(answer.body.registration_endpoint).toBe(`${answer.body.issuer}/oauth2/register`);
    expect(answer.body.code_challenge_methods_supported).toEqual(['S256']);
    expect(answer.body.token_endpoint_auth_methods_supported).toContain('none');
  });

  it('when a client registers, then it is a public client: 201, no secret, PKCE-only, the MCP scopes by default', async () => {
    const answer = await register({
      client_name: 'Claude',
      redirect_uris: [redirectUri, 'https://assistant.example.test/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }).expect(201);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatchObject({
      client_name: 'Claude',
      redirect_uris: [redirectUri, 'https://assistant.example.test/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'accounts:r budgets:r categories:r entries:rw user:r',
    });
    expect(answer.body.client_secret).toBeUndefined();
    const stored = await auth.deps.repos.clients.findById(answer.body.client_id);
    expect(stored).toMatchObject({ tokenEndpointAuthMethod: 'none', secretHash: '' });
  });

  it.each([
    ['http://assistant.example.test/cb', 'invalid_redirect_uri'],
    ['com.example.app:/cb', 'invalid_redirect_uri'],
    ['https://assistant.example.test/cb#x', 'invalid_redirect_uri'],
    ['javascript:alert(1)', 'invalid_redirect_uri'],
    ['not a uri', 'invalid_redirect_uri'],
  ])('when a redirect URI is %s, then 400 %s and nothing is registered', async (uri, error) => {
    // A name only this case uses: the suite runs in two jest projects at once against one database,
    // so counting every client would see the other project's registrations.
    const clientName = `refused ${uniqueEmail('dcr')}`;
    const answer = await register({ client_name: clientName, redirect_uris: [uri] }).expect(400);
    expect(answer.body.error).toBe(error);
    expect(answer.body.error_description).toContain('must');
    const registered = await auth.deps.repos.clients.listAll();
    expect(registered.filter((client) => client.name === clientName)).toEqual([]);
  });

  it.each([
    [{ redirect_uris: [] }, 'redirect_uris'],
    [{ redirect_uris: [redirectUri], grant_types: ['client_credentials'] }, 'grant_types'],
    [{ redirect_uris: [redirectUri], response_types: ['token'] }, 'response_types'],
    [{ redirect_uris: [redirectUri], scope: 'entries:rw admin' }, 'scope'],
  ])('when the metadata is %j, then 400 invalid_client_metadata naming %s', async (body, field) => {
    const answer = await register(body).expect(400);
    expect(answer.body.error).toBe('invalid_client_metadata');
    expect(answer.body.error_description).toContain(field);
  });

  it('when the body is not JSON, then 400 invalid_client_metadata', async () => {
    const answer = await request(auth.app).post('/oauth2/register').type('form').send({ a: 1 }).expect(400);
    expect(answer.body.error).toBe('invalid_client_metadata');
  });

  it('when the user consents, then the code flow needs PKCE, no secret, and the app is a connected application that can be revoked', async () => {
    const client = await registeredClient({ scope: 'entries:r' });
    const email = uniqueEmail('dcr-flow');
    await createTestUser(auth.deps, email, password);

    const withoutPkce = await request(auth.app)
      .get('/oauth2/authorize')
      .query({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri })
      .expect(302);
    expect(new URL(withoutPkce.headers.location).searchParams.get('error')).toBe('invalid_request');

    const { code, verifier, agent } = await authorize(client.client_id, email, {
      resource: 'http://api.example.test/mcp',
    });
    expect(code).toBeTruthy();
    const tokens = await exchange({
      code: code!,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: 'http://api.example.test/mcp',
    }).expect(200);
    expect(tokens.body.access_token).toBeTruthy();

    // A public client refreshes without a secret (OAuth 2.1 §4.3.1); the refresh token rotates.
    const refreshed = await request(auth.app)
      .post('/oauth2/token')
      .type('form')
      .send({
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
        client_id: client.client_id,
      })
      .expect(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);

    const account = await agent.get('/account').expect(200);
    expect(account.text).toContain('Test assistant');
    await agent
      .post(`/account/apps/${encodeURIComponent(client.client_id)}/revoke`)
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(303);
    const afterRevoke = await request(auth.app).post('/oauth2/token').type('form').send({
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: client.client_id,
    });
    expect(afterRevoke.status).toBe(400);
    expect(afterRevoke.body.error).toBe('invalid_grant');
    expect((await agent.get('/account').expect(200)).text).not.toContain('Test assistant');
  });

  it('when a confidential client sends no secret to refresh, then it is still refused', async () => {
    const confidential = await request(auth.app)
      .post('/oauth2/token')
      .type('form')
      .send({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: (await auth.deps.repos.clients.listAll())[0]?.id,
      });
    expect([400, 401]).toContain(confidential.status);
    expect(confidential.body.access_token).toBeUndefined();
  });

  it('when the resource names another server, then the authorization and the token request answer invalid_target', async () => {
    const client = await registeredClient();
    const email = uniqueEmail('dcr-target');
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const { challenge } = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: 'https://evil.example.test/mcp',
    });
    const refused = await agent.get(`/oauth2/authorize?${query}`).expect(302);
    expect(new URL(refused.headers.location).searchParams.get('error')).toBe('invalid_target');
    const token = await exchange({
      code: 'x',
      client_id: client.client_id,
      code_verifier: 'y'.repeat(43),
      resource: 'https://evil.example.test/',
    }).expect(400);
    expect(token.body.error).toBe('invalid_target');
  });

  it('when a client registered several redirect URIs and the request names none, then an error page and no redirect', async () => {
    const client = await registeredClient({
      redirect_uris: [redirectUri, 'https://assistant.example.test/cb'],
    });
    const email = uniqueEmail('dcr-several');
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const answer = await agent
      .get(
        `/oauth2/authorize?response_type=code&client_id=${client.client_id}&code_challenge=${pkcePair().challenge}&code_challenge_method=S256`,
      )
      .expect(400);
    expect(answer.text).toContain('must name one');
    const second = await agent
      .get(
        `/oauth2/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=${encodeURIComponent('https://assistant.example.test/cb')}&code_challenge=${pkcePair().challenge}&code_challenge_method=S256`,
      )
      .expect(200);
    expect(second.text).toContain('Test assistant');
    // Nobody checked a self-registered name: the consent page says so (and not for an operator's client).
    expect(second.text).toContain('This application registered itself');
    const operators = await createTestClient(auth.deps, { name: 'Operator app' });
    const consent = await agent
      .get(`/oauth2/authorize?response_type=code&client_id=${operators.client_id}`)
      .expect(200);
    expect(consent.text).toContain('Operator app');
    expect(consent.text).not.toContain('registered itself');
  });
});

describe('dynamic client registration limits', () => {
  const auth = useAuthTestApp({
    REDIS_KEY_PREFIX: isolatedRedisPrefix('dcr-limit'),
    AUTH_REGISTER_MAX_PER_IP: '3',
  });
  const redirectUri = 'http://127.0.0.1:43123/callback';
  const register = (body: unknown) =>
    request(auth.app)
      .post('/oauth2/register')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  it('when one network registers past AUTH_REGISTER_MAX_PER_IP, then 429 with Retry-After', async () => {
    let answer: request.Response | undefined;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      answer = await register({ redirect_uris: [redirectUri] });
      if (answer.status === 429) break;
      expect(answer.status).toBe(201);
    }
    expect(answer?.status).toBe(429);
    expect(answer?.body.error).toBe('too_many_requests');
    expect(Number(answer?.headers['retry-after'])).toBeGreaterThan(0);
  });
});
