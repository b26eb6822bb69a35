import { testLogger, uniqueEmail } from '@pfs/testing';
import type { Express } from 'express';
import request from 'supertest';
import { approveInBrowser, exchangeCode } from '../../../auth/test/support/browser-flow';
import {
  AuthTestApp,
  createTestClient,
  createTestUser,
  startAuthTestApp,
} from '../../../auth/test/support/auth-test-app';
import { buildApiApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { ApiDependencies, createApiDependencies } from '../../src/dependencies';

describe('GET /me with a token from the authorization code flow', () => {
  let auth: AuthTestApp;
  let apiDeps: ApiDependencies;
  let api: Express;

  beforeAll(async () => {
    auth = await startAuthTestApp();
    apiDeps = await createApiDependencies(loadApiConfig(process.env), testLogger());
    api = buildApiApp(apiDeps);
  });
  afterAll(async () => {
    await auth.deps.close();
    await apiDeps.close();
  });

  async function tokenFor(email: string, scope: string): Promise<string> {
    const password = 'correct horse battery';
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, { scope });
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id },
      email,
      password,
    });
    const token = await exchangeCode(auth.app, client, { code: location.searchParams.get('code')! }).expect(
      200,
    );
    return token.body.access_token;
  }

  it('when the app calls /me with its bearer token, then the API answers with that user', async () => {
    const email = uniqueEmail('me');
    const accessToken = await tokenFor(email, 'user:r');
    const me = await request(api).get('/me').set('Authorization', `Bearer ${accessToken}`).expect(200);
    expect(me.body).toMatchObject({ email, first_name: 'Ada', currency: { main: 'EUR' }, start_day: 1 });
    expect(me.body.id).toEqual(expect.any(String));
    expect(me.body.joined).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(me.body).not.toHaveProperty('last_name');
  });

  it('when no token is sent, then 401 with a Bearer challenge and the JSON error body', async () => {
    const answer = await request(api).get('/me').expect(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="pfs"/);
    expect(answer.body).toMatchObject({
      error_id: 'error.auth.unauthenticated',
      description: expect.any(String),
    });
  });

  it('when the token is unknown, then 401 invalid_token', async () => {
    const answer = await request(api).get('/me').set('Authorization', 'Bearer not-a-real-token').expect(401);
    expect(answer.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('when the token lacks user:r, then 403 names the scope needed', async () => {
    const accessToken = await tokenFor(uniqueEmail('scope'), 'entries:r');
    const answer = await request(api).get('/me').set('Authorization', `Bearer ${accessToken}`).expect(403);
    expect(answer.body).toMatchObject({
      error_id: 'error.auth.scope',
      description: 'This request needs the user:r scope.',
    });
  });

  it('when a request carries X-Request-Id, then it is echoed; otherwise one is made', async () => {
    const echoed = await request(api).get('/health').set('X-Request-Id', 'trace-123');
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const made = await request(api).get('/health').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
