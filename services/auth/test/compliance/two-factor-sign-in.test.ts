import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { generateTotpCode } from '../../src/security/totp';
import { inputValue } from '../support/browser-flow';
import { createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Ours, beyond the spec: two-factor users prove the second factor at sign-in too (before any session). */
describe('two-factor at sign-in', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  async function passwordStep(email: string) {
    const agent = request.agent(auth.app);
    const page = await agent.get('/login?return_to=%2Faccount');
    const answer = await agent
      .post('/login')
      .type('form')
      .send({ email, password, csrf_token: inputValue(page.text, 'csrf_token'), return_to: '/account' })
      .expect(303);
    expect(answer.headers.location).toBe('/login/two-factor');
    expect(String(answer.headers['set-cookie'])).not.toContain('pfs_session=');
    return agent;
  }

  it('when a two-factor user gives the password, then no session exists until the code is right', async () => {
    const email = uniqueEmail('otp-signin');
    const { otpSecret } = await createTestUser(auth.deps, email, password, { enableOtp: true });
    const agent = await passwordStep(email);
    await agent.get('/account').expect(303);
    const page = await agent.get('/login/two-factor').expect(200);
    const wrong = await agent
      .post('/login/two-factor')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), code: '12345x' })
      .expect(401);
    expect(wrong.text).toContain('That code is not right');
    const right = await agent
      .post('/login/two-factor')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), code: generateTotpCode(otpSecret!) })
      .expect(303);
    expect(right.headers.location).toBe('/account');
    await agent.get('/account').expect(200);
  });

  it('when the two-factor step is opened without a password step, then it sends back to sign-in', async () => {
    const answer = await request(auth.app).get('/login/two-factor').expect(303);
    expect(answer.headers.location).toBe('/login');
  });
});
