import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { inputValue, signedInAgent } from '../support/browser-flow';
import {
  createTestClient,
  createTestUser,
  isolatedRedisPrefix,
  useAuthTestApp,
} from '../support/auth-test-app';

/** Issue 3 "pages … CSRF-protected" and the security of a top authorization server's pages. */
describe('security of the pages', () => {
  const auth = useAuthTestApp({
    REDIS_KEY_PREFIX: isolatedRedisPrefix('pages'),
    AUTH_SIGNIN_MAX_FAILURES_PER_IP: '4',
  });
  const password = 'correct horse battery';

  async function signInWithReturnTo(returnTo: string) {
    const email = uniqueEmail('return-to');
    await createTestUser(auth.deps, email, password);
    const agent = request.agent(auth.app);
    const page = await agent.get(`/login?return_to=${encodeURIComponent(returnTo)}`).expect(200);
    expect(inputValue(page.text, 'return_to')).toBe('/account');
    const answer = await agent
      .post('/login')
      .type('form')
      .send({ email, password, csrf_token: inputValue(page.text, 'csrf_token'), return_to: returnTo })
      .expect(303);
    return answer.headers.location;
  }

  it.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '/oauth2/authorizeX',
    '/account/../../x',
  ])(
    'when sign-in is asked to return to %s, then it returns to /account instead (no open redirect)',
    async (returnTo) => {
      expect(await signInWithReturnTo(returnTo)).toBe('/account');
    },
  );

  it('when another site posts Allow for a signed-in user without the CSRF token, then 403 and no code is issued', async () => {
    const email = uniqueEmail('consent-csrf');
    const { user } = await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps);
    const { agent } = await signedInAgent(auth.app, email, password);
    const answer = await agent
      .post('/oauth2/authorize')
      .type('form')
      .send({ client_id: client.client_id, response_type: 'code', decision: 'allow' })
      .expect(403);
    expect(answer.headers.location).toBeUndefined();
    const grants = await auth.deps.dataSource.query(`SELECT id FROM oauth_grants WHERE user_id = $1`, [
      user.id,
    ]);
    expect(grants).toHaveLength(0);
  });

  it('when the consent page is served, then it cannot be framed, runs no script and is not cached', async () => {
    const email = uniqueEmail('consent-headers');
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps);
    const { agent } = await signedInAgent(auth.app, email, password);
    const consent = await agent
      .get(`/oauth2/authorize?response_type=code&client_id=${client.client_id}`)
      .expect(200);
    const policy = String(consent.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("script-src-attr 'none'");
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).toContain("form-action 'self' https://client.example.test");
    expect(consent.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(consent.headers['cache-control']).toBe('no-store');
    expect(consent.text).not.toContain('<script');
  });

  it('when one IP fails sign-in on many accounts, then past AUTH_SIGNIN_MAX_FAILURES_PER_IP it gets 429 with Retry-After', async () => {
    const agent = request.agent(auth.app);
    const page = await agent.get('/login').expect(200);
    const attempt = (email: string) =>
      agent
        .post('/login')
        .type('form')
        .send({ email, password: 'not the password', csrf_token: inputValue(page.text, 'csrf_token') });
    for (let index = 0; index < 4; index += 1) await attempt(uniqueEmail(`spray-${index}`)).expect(401);
    const blocked = await attempt(uniqueEmail('spray-last')).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
