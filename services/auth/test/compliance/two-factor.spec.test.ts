import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { generateTotpCode } from '../../src/security/totp';
import { approveInBrowser, exchangeCode, inputValue, pkcePair, signedInAgent } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Spec "Two-factor authentication" 1–3 and the Errors table's 401 + X-Service-OTP row; RFC 6238. */
describe('two-factor authentication at the token request', () => {
  const auth = useAuthTestApp({ AUTH_OTP_MAX_FAILURES: '3' });
  const password = 'correct horse battery';

  async function otpUserWithCode() {
    const email = uniqueEmail('otp');
    const created = await createTestUser(auth.deps, email, password, { enableOtp: true });
    const client = await createTestClient(auth.deps);
    const secret = created.otpSecret!;
    const { location, agent } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id },
      email,
      password,
      secondFactor: () => generateTotpCode(secret),
    });
    return {
      email,
      secret,
      agent,
      userId: created.user.id,
      client,
      code: location.searchParams.get('code')!,
    };
  }

  const exchangeWithOtp = (
    client: { client_id: string; client_secret: string },
    code: string,
    otp?: string,
  ) => {
    const call = request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form');
    if (otp !== undefined) call.set('X-Service-OTP', otp);
    return call.send({ grant_type: 'authorization_code', code });
  };

  it('when the user has two-factor, then the first request gets 401 X-Service-OTP: required and the code survives for the retry', async () => {
    const { client, code, secret } = await otpUserWithCode();
    const first = await exchangeCode(auth.app, client, { code }).expect(401);
    expect(first.headers['x-service-otp']).toBe('required');
    expect(first.body.error).toBe('otp_required');
    const retry = await exchangeWithOtp(client, code, generateTotpCode(secret)).expect(200);
    expect(retry.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
  });

  it('when the code is wrong, then 401 again with X-Service-OTP: required', async () => {
    const { client, code, secret } = await otpUserWithCode();
    const good = generateTotpCode(secret);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    const answer = await exchangeWithOtp(client, code, wrong).expect(401);
    expect(answer.headers['x-service-otp']).toBe('required');
    expect(answer.body.error).toBe('invalid_otp');
    await exchangeWithOtp(client, code, good).expect(200);
  });

  it('when a TOTP code was already used, then it is refused the second time', async () => {
    const first = await otpUserWithCode();
    const otp = generateTotpCode(first.secret);
    await exchangeWithOtp(first.client, first.code, otp).expect(200);
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: first.client.client_id },
      email: first.email,
      password,
      agent: first.agent,
    });
    const replay = await exchangeWithOtp(first.client, location.searchParams.get('code')!, otp).expect(401);
    expect(replay.body.error).toBe('invalid_otp');
  });

  it('when AUTH_OTP_MAX_FAILURES wrong codes were sent, then the next attempt gets 429 with Retry-After, even with the right code', async () => {
    const { client, code, secret } = await otpUserWithCode();
    await exchangeWithOtp(client, code, '000000').expect(401);
    await exchangeWithOtp(client, code, '000001').expect(401);
    await exchangeWithOtp(client, code, '000002').expect(401);
    const fourth = await exchangeWithOtp(client, code, generateTotpCode(secret)).expect(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect(fourth.body.error).toBe('too_many_requests');
  });

  it('when the client sends its credentials in the body instead of Basic, then two-factor is still asked', async () => {
    const { client, code } = await otpUserWithCode();
    const answer = await request(auth.app)
      .post('/oauth2/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code,
        client_id: client.client_id,
        client_secret: client.client_secret,
      })
      .expect(401);
    expect(answer.headers['x-service-otp']).toBe('required');
  });

  it('when a public client exchanges with PKCE and no secret, then two-factor is still asked', async () => {
    const email = uniqueEmail('otp-public');
    const created = await createTestUser(auth.deps, email, password, { enableOtp: true });
    const client = await createTestClient(auth.deps, { implicit: true });
    const pkce = pkcePair();
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: {
        response_type: 'code',
        client_id: client.client_id,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      },
      email,
      password,
      secondFactor: () => generateTotpCode(created.otpSecret!),
    });
    const form = {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: location.searchParams.get('code')!,
      code_verifier: pkce.verifier,
    };
    const first = await request(auth.app).post('/oauth2/token').type('form').send(form).expect(401);
    expect(first.headers['x-service-otp']).toBe('required');
    await request(auth.app)
      .post('/oauth2/token')
      .set('X-Service-OTP', generateTotpCode(created.otpSecret!))
      .type('form')
      .send(form)
      .expect(200);
  });

  it('when the client refreshes, then no second factor is asked', async () => {
    const { client, code, secret } = await otpUserWithCode();
    const tokens = await exchangeWithOtp(client, code, generateTotpCode(secret)).expect(200);
    await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token })
      .expect(200);
  });

  it('when the user turns two-factor on in settings, then a recovery code works once in place of the app', async () => {
    const email = uniqueEmail('setup');
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const account = await agent.get('/account').expect(200);
    const setup = await agent
      .post('/account/two-factor/setup')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(200);
    expect(setup.text).toMatch(
      /<img src="data:image\/png;base64,[^"]+" alt="QR code of your two-factor secret"/,
    );
    const secret = /id="otp-secret">([A-Z2-7]+)</.exec(setup.text)![1];
    const enabled = await agent
      .post('/account/two-factor/enable')
      .type('form')
      .send({ csrf_token: inputValue(setup.text, 'csrf_token'), code: generateTotpCode(secret) })
      .expect(200);
    const recoveryCodes = [...enabled.text.matchAll(/<li><code>([a-z0-9-]{19})<\/code><\/li>/g)].map(
      (m) => m[1],
    );
    expect(recoveryCodes).toHaveLength(10);
    const stored = await auth.deps.dataSource.query(
      `SELECT c.otp_secret FROM auth_credentials c JOIN users u ON u.id = c.user_id WHERE u.email = $1`,
      [email],
    );
    expect(stored[0].otp_secret).toMatch(/^v1\./);
    expect(stored[0].otp_secret).not.toContain(secret);

    const client = await createTestClient(auth.deps);
    const codeFor = async () => {
      const { location } = await approveInBrowser(auth.app, {
        authorizeQuery: { response_type: 'code', client_id: client.client_id },
        email,
        password,
        agent,
      });
      return location.searchParams.get('code')!;
    };
    const code = await codeFor();
    await exchangeCode(auth.app, client, { code }).expect(401);
    await exchangeWithOtp(client, code, recoveryCodes[0].toUpperCase()).expect(200);
    const again = await exchangeWithOtp(client, await codeFor(), recoveryCodes[0]).expect(401);
    expect(again.body.error).toBe('invalid_otp');
  });

  it('when two-factor is turned off with the password, then the token request no longer asks', async () => {
    const { agent, client, code } = await otpUserWithCode();
    const account = await agent.get('/account').expect(200);
    expect(account.text).toContain('Two-factor authentication is <strong>on</strong>');
    await agent
      .post('/account/two-factor/disable')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token'), password: 'wrong password' })
      .expect(400);
    const off = await agent
      .post('/account/two-factor/disable')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token'), password })
      .expect(200);
    expect(off.text).toContain('Two-factor authentication is <strong>off</strong>');
    await exchangeCode(auth.app, client, { code }).expect(200);
  });
});
