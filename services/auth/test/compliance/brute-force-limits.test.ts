import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { generateTotpCode } from '../../src/security/totp';
import { approveInBrowser, inputValue, signedInAgent } from '../support/browser-flow';
import {
  createTestClient,
  createTestUser,
  isolatedRedisPrefix,
  useAuthTestApp,
} from '../support/auth-test-app';

/**
 * Issue 3 "brute-force limits on sign-in, two-factor and the token endpoint (per account and per IP),
 * 429 + Retry-After", including attempts sent all at once: a limit that only reads its counter before
 * the (slow) check lets a burst through.
 */
describe('brute-force limits', () => {
  const auth = useAuthTestApp({
    REDIS_KEY_PREFIX: isolatedRedisPrefix('limits'),
    AUTH_SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3',
    AUTH_SIGNIN_MAX_FAILURES_PER_IP: '40',
    AUTH_OTP_MAX_FAILURES: '3',
  });
  const password = 'correct horse battery';
  const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status);
  const count = (list: number[], status: number) => list.filter((value) => value === status).length;

  async function passwordStep(email: string) {
    const agent = request.agent(auth.app);
    const page = await agent.get('/login').expect(200);
    await agent
      .post('/login')
      .type('form')
      .send({ email, password, csrf_token: inputValue(page.text, 'csrf_token') })
      .expect(303);
    const step = await agent.get('/login/two-factor').expect(200);
    const send = (code: string) =>
      agent
        .post('/login/two-factor')
        .type('form')
        .send({ csrf_token: inputValue(step.text, 'csrf_token'), code });
    return { agent, send };
  }

  it('when wrong sign-in codes reach AUTH_OTP_MAX_FAILURES, then the two-factor step answers 429 with Retry-After, even with the right code', async () => {
    const email = uniqueEmail('otp-step');
    const { otpSecret } = await createTestUser(auth.deps, email, password, { enableOtp: true });
    const { agent, send } = await passwordStep(email);
    for (const code of ['000000', '000001', '000002']) await send(code).expect(401);
    const blocked = await send(generateTotpCode(otpSecret!)).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.text).toContain('Too many wrong codes');
    await agent.get('/account').expect(303);
  });

  it('when wrong sign-in codes arrive all at once, then no more than AUTH_OTP_MAX_FAILURES are checked', async () => {
    const email = uniqueEmail('otp-burst');
    await createTestUser(auth.deps, email, password, { enableOtp: true });
    const { send } = await passwordStep(email);
    const codes = Array.from({ length: 20 }, (_, index) => String(100_000 + index));
    const answers = statuses(await Promise.all(codes.map((code) => send(code))));
    expect(count(answers, 401)).toBeLessThanOrEqual(3);
    expect(count(answers, 429)).toBeGreaterThanOrEqual(17);
  });

  it('when wrong codes reach the token endpoint all at once, then no more than AUTH_OTP_MAX_FAILURES are checked', async () => {
    const email = uniqueEmail('otp-token-burst');
    const { otpSecret } = await createTestUser(auth.deps, email, password, { enableOtp: true });
    const client = await createTestClient(auth.deps);
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id },
      email,
      password,
      secondFactor: () => generateTotpCode(otpSecret!),
    });
    const code = location.searchParams.get('code')!;
    const exchange = (otp: string) =>
      request(auth.app)
        .post('/oauth2/token')
        .auth(client.client_id, client.client_secret)
        .set('X-Service-OTP', otp)
        .type('form')
        .send({ grant_type: 'authorization_code', code });
    const otps = Array.from({ length: 20 }, (_, index) => String(200_000 + index));
    const answers = statuses(await Promise.all(otps.map(exchange)));
    expect(count(answers, 401)).toBeLessThanOrEqual(3);
    expect(count(answers, 429)).toBeGreaterThanOrEqual(17);
  });

  it('when wrong passwords for one account arrive all at once, then no more than the account limit are checked', async () => {
    const email = uniqueEmail('password-burst');
    await createTestUser(auth.deps, email, password);
    const agent = request.agent(auth.app);
    const page = await agent.get('/login').expect(200);
    const guesses = Array.from({ length: 12 }, (_, index) => `guess number ${index}`);
    const answers = statuses(
      await Promise.all(
        guesses.map((guess) =>
          agent
            .post('/login')
            .type('form')
            .send({ email, password: guess, csrf_token: inputValue(page.text, 'csrf_token') }),
        ),
      ),
    );
    expect(count(answers, 401)).toBeLessThanOrEqual(3);
    expect(count(answers, 429)).toBeGreaterThanOrEqual(9);
  });

  it('when a signed-in browser guesses the password to turn two-factor off, then 429 with Retry-After after the account limit', async () => {
    const email = uniqueEmail('disable-guess');
    const { otpSecret } = await createTestUser(auth.deps, email, password, { enableOtp: true });
    const { agent } = await signedInAgent(auth.app, email, password, () => generateTotpCode(otpSecret!));
    const account = await agent.get('/account').expect(200);
    const disable = (guess: string) =>
      agent
        .post('/account/two-factor/disable')
        .type('form')
        .send({ csrf_token: inputValue(account.text, 'csrf_token'), password: guess });
    for (let attempt = 0; attempt < 3; attempt += 1) await disable(`wrong ${attempt}`).expect(400);
    const blocked = await disable(password).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const user = await auth.deps.repos.users.findByEmail(email);
    const credential = await auth.deps.repos.credentials.findByUserId(user!.id);
    expect(credential?.otpEnabledAt).not.toBeNull();
  });
});

describe('sign-up limit per IP', () => {
  const auth = useAuthTestApp({
    REDIS_KEY_PREFIX: isolatedRedisPrefix('signup'),
    AUTH_SIGNIN_MAX_FAILURES_PER_IP: '3',
  });
  const password = 'correct horse battery';

  it('when one IP signs up more than the limit allows, then 429 with Retry-After and no account is created', async () => {
    const agent = request.agent(auth.app);
    const page = await agent.get('/signup').expect(200);
    const signUp = (email: string) =>
      agent
        .post('/signup')
        .type('form')
        .send({ csrf_token: inputValue(page.text, 'csrf_token'), email, password });
    let blocked: request.Response | undefined;
    for (let attempt = 0; attempt < 5 && !blocked; attempt += 1) {
      const answer = await signUp(uniqueEmail('signup-flood'));
      if (answer.status === 429) blocked = answer;
      else expect(answer.status).toBe(303);
    }
    expect(blocked).toBeDefined();
    expect(Number(blocked!.headers['retry-after'])).toBeGreaterThan(0);
    const refusedEmail = uniqueEmail('signup-refused');
    await signUp(refusedEmail).expect(429);
    expect(await auth.deps.repos.users.findByEmail(refusedEmail)).toBeUndefined();
  });

  it('when one IP signs in with the right password more often than its failure limit, then it is never throttled', async () => {
    const email = uniqueEmail('regular');
    await createTestUser(auth.deps, email, password);
    for (let attempt = 0; attempt < 5; attempt += 1) await signedInAgent(auth.app, email, password);
    // signedInAgent expects 303 each time: with only failures counted, the limit of 3 is never reached.
    const { agent } = await signedInAgent(auth.app, email, password);
    await agent.get('/account').expect(200);
  });

  it('when sign-ups come from different addresses of one IPv6 /64, then they share one limit', async () => {
    const agent = request.agent(auth.app);
    const page = await agent.get('/signup').expect(200);
    // trust proxy is loopback, so the test (on loopback) plays the proxy naming each client's address.
    const signUpFrom = (address: string) =>
      agent
        .post('/signup')
        .set('X-Forwarded-For', address)
        .type('form')
        .send({ csrf_token: inputValue(page.text, 'csrf_token'), email: uniqueEmail('v6'), password });
    const sameNetwork = ['2001:db8:1:2::1', '2001:db8:1:2:a:b:c:d', '2001:db8:1:2::ffff'];
    for (const address of sameNetwork) await signUpFrom(address).expect(303);
    const blocked = await signUpFrom('2001:0db8:0001:0002:9999:8888:7777:6666').expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    await signUpFrom('2001:db8:1:3::1').expect(303);
  });
});
