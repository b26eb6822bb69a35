import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { approveInBrowser, exchangeCode, inputValue } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

describe('authorization code flow (walking skeleton)', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  it('when a signed-out user opens authorize, then the sign-in page has Email, Password and a Sign in button', async () => {
    const client = await createTestClient(auth.deps);
    const agent = request.agent(auth.app);
    const first = await agent
      .get(`/oauth2/authorize?response_type=code&client_id=${client.client_id}&state=xyz`)
      .expect(302);
    expect(first.headers.location).toMatch(/^\/login\?return_to=/);
    const page = await agent.get(first.headers.location).expect(200).expect('Content-Type', /html/);
    expect(page.text).toMatch(/<label for="email">Email<\/label>/);
    expect(page.text).toMatch(/<label for="password">Password<\/label>/);
    expect(page.text).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(String(page.headers['set-cookie'])).toMatch(/pfs_csrf=.*HttpOnly.*SameSite=Lax/i);
  });

  it('when the user signs in and allows, then the client gets a code and state, and the code buys a token document', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, { name: 'Budget Buddy', scope: 'user:r entries:rw' });
    const { location, agent } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id, state: 'af0ifjsldkj' },
      email,
      password,
    });
    expect(`${location.origin}${location.pathname}`).toBe('https://client.example.test/callback');
    expect(location.searchParams.get('state')).toBe('af0ifjsldkj');
    const code = location.searchParams.get('code');
    expect(code).toBeTruthy();
    void agent;

    const token = await exchangeCode(auth.app, client, { code: code! }).expect(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.headers['pragma']).toBe('no-cache');
    expect(token.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(token.headers['content-length'])).toBe(Buffer.byteLength(token.text));
    // No validator on an answer no cache may keep (RFC 6749 §5.1; written without res.json's ETag).
    expect(token.headers['etag']).toBeUndefined();
    expect(token.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
    });
  });

  it('when the consent page is shown, then it names the app and each scope with Allow and Deny', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, { name: 'Ledger <Pro>', scope: 'user:r accounts:rw' });
    const agent = request.agent(auth.app);
    const first = await agent
      .get(`/oauth2/authorize?response_type=code&client_id=${client.client_id}`)
      .expect(302);
    const signIn = await agent.get(first.headers.location);
    const signedIn = await agent
      .post('/login')
      .type('form')
      .send({
        email,
        password,
        csrf_token: inputValue(signIn.text, 'csrf_token'),
        return_to: inputValue(signIn.text, 'return_to'),
      })
      .expect(303);
    const consent = await agent.get(signedIn.headers.location).expect(200);
    expect(consent.text).toContain('Ledger &lt;Pro&gt;');
    expect(consent.text).toContain('<code>user:r</code>');
    expect(consent.text).toContain('<code>accounts:rw</code>');
    expect(consent.text).toContain('You will then return to <strong>client.example.test</strong>.');
    expect(consent.text).toMatch(/<button type="submit" name="decision" value="allow">Allow<\/button>/);
    expect(consent.text).toMatch(/<button type="submit" name="decision" value="deny"[^>]*>Deny<\/button>/);
  });

  it('when the user denies, then the client receives access_denied with its state', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps);
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id, state: 's1' },
      email,
      password,
      decision: 'deny',
    });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('when the password is wrong, then sign-in answers 401 and sets no session', async () => {
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const agent = request.agent(auth.app);
    const page = await agent.get('/login');
    const answer = await agent
      .post('/login')
      .type('form')
      .send({ email, password: 'wrong password', csrf_token: inputValue(page.text, 'csrf_token') })
      .expect(401);
    expect(answer.text).toContain('The email or password is incorrect.');
    expect(String(answer.headers['set-cookie'] ?? '')).not.toContain('pfs_session=');
  });

  it('when the sign-in form comes without its CSRF token, then it is refused', async () => {
    await request(auth.app).post('/login').type('form').send({ email: 'a@b.c', password: 'x' }).expect(403);
  });

  it('when the client is unknown, then an error page is shown and nothing is redirected', async () => {
    const answer = await request(auth.app)
      .get('/oauth2/authorize?response_type=code&client_id=nope')
      .expect(400);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.text).toContain('This application is not registered.');
  });
});
