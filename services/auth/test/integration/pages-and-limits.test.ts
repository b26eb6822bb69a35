import { hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { inputValue, signedInAgent } from '../support/browser-flow';
import { createTestUser, startAuthTestApp, useAuthTestApp } from '../support/auth-test-app';

describe('sign-up, settings pages, developer page and sign-in limits', () => {
  const auth = useAuthTestApp({ AUTH_SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3' });
  const password = 'correct horse battery';

  it('when someone signs up, then the account exists with an argon2id hash and they are signed in', async () => {
    const email = uniqueEmail('signup');
    const agent = request.agent(auth.app);
    const page = await agent.get('/signup').expect(200);
    const answer = await agent
      .post('/signup')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), email, password, first_name: 'Grace' })
      .expect(303);
    expect(answer.headers.location).toBe('/account');
    expect(String(answer.headers['set-cookie'])).toMatch(/pfs_session=[^;]+;.*HttpOnly.*SameSite=Lax/i);
    const account = await agent.get('/account').expect(200);
    expect(account.text).toContain(email);
    const [row] = await auth.deps.dataSource.query(
      `SELECT c.password_hash FROM auth_credentials c JOIN users u ON u.id = c.user_id WHERE u.email = $1`,
      [email],
    );
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('when the sign-up form is invalid, then the page lists each problem and ties it to its field', async () => {
    const agent = request.agent(auth.app);
    const page = await agent.get('/signup').expect(200);
    const answer = await agent
      .post('/signup')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), email: 'not-an-email', password: 'short' })
      .expect(400);
    expect(answer.text).toContain('<li>The email must be an email address.</li>');
    expect(answer.text).toContain('<li>The password must be at least 8 characters.</li>');
    expect(answer.text).toContain('id="email-error">The email must be an email address.');
    expect(answer.text).toMatch(/id="email"[^>]*aria-describedby="email-error"[^>]*aria-invalid="true"/);
    expect(answer.text).toMatch(/id="password"[^>]*aria-describedby="password-hint password-error"/);
  });

  it('when an account fails sign-in too often, then 429 with Retry-After, even with the right password', async () => {
    const email = uniqueEmail('brute');
    await createTestUser(auth.deps, email, password);
    const agent = request.agent(auth.app);
    const page = await agent.get('/login');
    const attempt = (pw: string) =>
      agent
        .post('/login')
        .type('form')
        .send({ email, password: pw, csrf_token: inputValue(page.text, 'csrf_token') });
    for (let i = 0; i < 3; i += 1) await attempt(`wrong ${i}`).expect(401);
    const blocked = await attempt(password).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.text).toContain('Too many failed sign-ins');
  });

  it('when a settings form is posted without its CSRF token, then 403 and nothing changes', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    await agent.post('/account/tokens').type('form').send({ name: 'sneaky' }).expect(403);
    const account = await agent.get('/account').expect(200);
    expect(account.text).not.toContain('sneaky');
  });

  it('when a signed-out visitor opens the settings, then they are sent to sign in and back', async () => {
    const answer = await request(auth.app).get('/account').expect(303);
    expect(answer.headers.location).toBe('/login?return_to=%2Faccount');
  });

  it('when a developer registers an application, then the secret is shown once and stored hashed', async () => {
    const email = uniqueEmail('dev');
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const page = await agent.get('/developer').expect(200);
    const created = await agent
      .post('/developer/apps')
      .type('form')
      .send(
        `csrf_token=${inputValue(page.text, 'csrf_token')}&name=My+Budget&redirect_uri=${encodeURIComponent(
          'https://budget.example/cb',
        )}&scope=user%3Ar&scope=entries%3Arw`,
      )
      .expect(201);
    const clientId = /id="client-id">([^<]+)</.exec(created.text)![1];
    const secret = /id="client-secret">([^<]+)</.exec(created.text)![1];
    const client = await auth.deps.repos.clients.findById(clientId);
    expect(client).toMatchObject({
      name: 'My Budget',
      scope: 'entries:rw user:r',
      secretHash: hashToken(secret),
    });
    const later = await agent.get('/developer').expect(200);
    expect(later.text).toContain(clientId);
    expect(later.text).not.toContain(secret);
  });

  it('when the registration form is invalid, then the page names the fields', async () => {
    const email = uniqueEmail('dev');
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const page = await agent.get('/developer').expect(200);
    const answer = await agent
      .post('/developer/apps')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), name: 'X', redirect_uri: 'not a uri' })
      .expect(400);
    expect(answer.text).toContain('redirect URI must be an absolute URI');
    expect(answer.text).toContain('scope must name at least one scope');
  });

  it('when a client reads the RFC 8414 metadata, then it names our endpoints, grants, S256 and every client authentication the token endpoint accepts', async () => {
    const answer = await request(auth.app).get('/.well-known/oauth-authorization-server').expect(200);
    const url = auth.deps.config.AUTH_URL;
    expect(answer.body).toMatchObject({
      issuer: url,
      authorization_endpoint: `${url}/oauth2/authorize`,
      token_endpoint: `${url}/oauth2/token`,
      revocation_endpoint: `${url}/oauth2/revoke`,
      response_types_supported: ['code', 'token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
    expect(answer.body.scopes_supported).toContain('entries:rw');
  });

  it('when the user signs out, then the session no longer opens the settings', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const account = await agent.get('/account').expect(200);
    await agent
      .post('/logout')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(303);
    await agent.get('/account').expect(303);
  });

  it('when AUTH_URL is https, then the session and CSRF cookies are Secure', async () => {
    const secure = await startAuthTestApp({ AUTH_URL: 'https://auth.example.test' });
    try {
      const email = uniqueEmail();
      await createTestUser(secure.deps, email, password);
      const agent = request.agent(secure.app);
      const page = await agent.get('/login').expect(200);
      expect(String(page.headers['set-cookie'])).toMatch(/pfs_csrf=[^;]+;.*Secure/);
      const signedIn = await agent
        .post('/login')
        .set('Cookie', `pfs_csrf=${inputValue(page.text, 'csrf_token')}`)
        .type('form')
        .send({ email, password, csrf_token: inputValue(page.text, 'csrf_token') })
        .expect(303);
      expect(String(signedIn.headers['set-cookie'])).toMatch(
        /pfs_session=[^;]+;.*HttpOnly;.*Secure;.*SameSite=Lax/,
      );
    } finally {
      await secure.deps.close();
    }
  });
});
