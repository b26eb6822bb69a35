import { accessTokenKey, hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { createUser } from '../../src/use-cases/create-user.use-case';
import {
  AuthTestApp,
  createTestClient,
  isolatedRedisPrefix,
  startAuthTestApp,
} from '../support/auth-test-app';
import { approveInBrowser, exchangeCode, inputValue, signedInAgent } from '../support/browser-flow';
import { linkIn, MailCatcher, startMailCatcher } from '../support/mail-catcher';

/** Issue 17, point 1: sign-up verifies the address by mail; a forgotten password is reset by mail. */
describe('account mail: verification and password reset over real SMTP', () => {
  let mail: MailCatcher;
  let auth: AuthTestApp;
  const password = 'correct horse battery';

  beforeAll(async () => {
    mail = await startMailCatcher();
    auth = await startAuthTestApp({ SMTP_URL: mail.url, REDIS_KEY_PREFIX: isolatedRedisPrefix('mail') });
  });
  afterAll(async () => {
    await auth?.deps.close();
    await mail?.stop();
  });

  const pathOf = (url: URL) => `${url.pathname}${url.search}`;

  async function signUp(email: string) {
    const agent = request.agent(auth.app);
    const form = await agent.get('/signup').expect(200);
    await agent
      .post('/signup')
      .type('form')
      .send({ csrf_token: inputValue(form.text, 'csrf_token'), email, password })
      .expect(303);
    return agent;
  }

  it('when a user signs up, then the account is unverified, cannot authorize an app, and the mailed link verifies it once', async () => {
    const email = uniqueEmail('verify');
    const agent = await signUp(email);
    const client = await createTestClient(auth.deps);
    const authorize = `/oauth2/authorize?response_type=code&client_id=${client.client_id}`;

    const refused = await agent.get(authorize).expect(403);
    expect(refused.text).toContain('Verify your email address first');
    const account = await agent.get('/account').expect(200);
    expect(account.text).toContain('is not verified yet');
    const token = await agent
      .post('/account/tokens')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token'), name: 'x' })
      .expect(403);
    expect(token.text).toContain('Verify your email address first');

    const link = linkIn(await mail.next(email), '/verify-email');
    expect(link.origin).toBe(new URL(auth.deps.config.AUTH_URL).origin);
    const [stored] = await auth.deps.dataSource.query(
      `SELECT token_hash, purpose FROM auth_email_tokens WHERE email = $1`,
      [email],
    );
    // Only the hash of the link's token is stored.
    expect(stored).toEqual({
      token_hash: hashToken(link.searchParams.get('token')!),
      purpose: 'verify-email',
    });

    const verified = await request(auth.app).get(pathOf(link)).expect(200);
    expect(verified.text).toContain('your email address is verified');
    await request(auth.app).get(pathOf(link)).expect(400);

    const consent = await agent.get(authorize).expect(200);
    expect(consent.text).toContain('Allow Budget Buddy to use your account?');
    expect(consent.text).toMatch(new RegExp(`Signed in as <strong>${email}</strong>`));
  });

  it('when a verification link is asked for again, then a new one comes and the old one still works once', async () => {
    const email = uniqueEmail('resend');
    const agent = await signUp(email);
    const first = linkIn(await mail.next(email), '/verify-email');
    const account = await agent.get('/account').expect(200);
    await agent
      .post('/account/verify-email/resend')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(200);
    const second = linkIn(await mail.next(email), '/verify-email');
    expect(second.href).not.toBe(first.href);
    await request(auth.app).get(pathOf(first)).expect(200);
    expect((await agent.get('/account').expect(200)).text).not.toContain('is not verified yet');
  });

  async function askForReset(email: string) {
    const agent = request.agent(auth.app);
    const form = await agent.get('/forgot-password').expect(200);
    const answer = await agent
      .post('/forgot-password')
      .type('form')
      .send({ csrf_token: inputValue(form.text, 'csrf_token'), email })
      .expect(200);
    return answer.text.replace(/value="[^"]+"/g, 'value=""').replace(email, 'ADDRESS');
  }

  it('when a reset is asked for a known and an unknown address, then both get the same answer and only the known one gets mail', async () => {
    const known = uniqueEmail('reset-known');
    const unknown = uniqueEmail('reset-unknown');
    await createUser(auth.deps, { email: known, password });
    const unknownAnswer = await askForReset(unknown);
    const knownAnswer = await askForReset(known);
    expect(knownAnswer).toBe(unknownAnswer);
    expect(knownAnswer).toContain('we have sent it a link');
    linkIn(await mail.next(known), '/reset-password');
    expect(mail.mails.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('when a user resets the password, then the link works once, and every session, grant and token of the account ends', async () => {
    const email = uniqueEmail('reset');
    await createUser(auth.deps, { email, password });
    const client = await createTestClient(auth.deps);
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id },
      email,
      password,
    });
    const tokens = (
      await exchangeCode(auth.app, client, { code: location.searchParams.get('code')! }).expect(200)
    ).body as { access_token: string; refresh_token: string };
    const { agent } = await signedInAgent(auth.app, email, password);
    await agent.get('/account').expect(200);
    expect(await auth.deps.redis.get(accessTokenKey(hashToken(tokens.access_token)))).not.toBeNull();

    await askForReset(email);
    const link = linkIn(await mail.next(email), '/reset-password');
    const browser = request.agent(auth.app);
    const form = await browser.get(pathOf(link)).expect(200);
    expect(form.text).toContain('Choose a new password');
    // The token is carried by a hidden field, and the GET did not use the link up.
    expect(inputValue(form.text, 'token')).toBe(link.searchParams.get('token'));
    const csrf = inputValue(form.text, 'csrf_token');
    const short = await browser
      .post('/reset-password')
      .type('form')
      .send({ csrf_token: csrf, token: link.searchParams.get('token'), password: 'short' })
      .expect(400);
    expect(short.text).toContain('aria-describedby="password-hint password-error"');
    expect(short.text).toContain('aria-invalid="true"');

    const newPassword = 'a brand new passphrase';
    await browser
      .post('/reset-password')
      .type('form')
      .send({ csrf_token: csrf, token: link.searchParams.get('token'), password: newPassword })
      .expect(200);
    await browser
      .post('/reset-password')
      .type('form')
      .send({ csrf_token: csrf, token: link.searchParams.get('token'), password: 'yet another passphrase' })
      .expect(400);
    await request(auth.app).get(pathOf(link)).expect(400);

    // Signed out everywhere, the app's tokens dead in Redis and in Postgres.
    expect((await agent.get('/account').expect(303)).headers.location).toMatch(/^\/login/);
    expect(await auth.deps.redis.get(accessTokenKey(hashToken(tokens.access_token)))).toBeNull();
    const refresh = await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
      .expect(400);
    expect(refresh.body.error).toBe('invalid_grant');
    const [grant] = await auth.deps.dataSource.query(
      `SELECT count(*)::int AS live FROM oauth_grants g JOIN users u ON u.id = g.user_id
        WHERE u.email = $1 AND g.revoked_at IS NULL`,
      [email],
    );
    expect(grant.live).toBe(0);

    await signedInAgent(auth.app, email, newPassword);
    await expect(signedInAgent(auth.app, email, password)).rejects.toThrow();
  });

  it('when a reset link is older than 30 minutes, then it no longer opens the form', async () => {
    const email = uniqueEmail('reset-expired');
    await createUser(auth.deps, { email, password });
    await askForReset(email);
    const link = linkIn(await mail.next(email), '/reset-password');
    const [row] = await auth.deps.dataSource.query(
      `SELECT extract(epoch FROM expires_at - created_at)::float AS ttl FROM auth_email_tokens WHERE token_hash = $1`,
      [hashToken(link.searchParams.get('token')!)],
    );
    expect(Math.abs(row.ttl - 30 * 60)).toBeLessThan(5);
    await auth.deps.dataSource.query(
      `UPDATE auth_email_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
      [hashToken(link.searchParams.get('token')!)],
    );
    const expired = await request(auth.app).get(pathOf(link)).expect(400);
    expect(expired.text).toContain('Link used up or expired');
  });
});
