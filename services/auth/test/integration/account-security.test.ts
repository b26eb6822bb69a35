import { userSessionsKey } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { createTestUser, isolatedRedisPrefix, useAuthTestApp } from '../support/auth-test-app';
import { inputValue } from '../support/browser-flow';

/** Issue 17, point 1: password change on /account, and the list of sign-in sessions with "sign out everywhere". */
describe('account security: password change and sessions', () => {
  const auth = useAuthTestApp({ REDIS_KEY_PREFIX: isolatedRedisPrefix('security') });
  const password = 'correct horse battery';

  async function signIn(email: string, secret: string, userAgent: string) {
    const agent = request.agent(auth.app).set('User-Agent', userAgent);
    const form = await agent.get('/login').expect(200);
    await agent
      .post('/login')
      .type('form')
      .send({ email, password: secret, csrf_token: inputValue(form.text, 'csrf_token') })
      .expect(303);
    const account = await agent.get('/account').expect(200);
    return { agent, page: account.text, csrf: inputValue(account.text, 'csrf_token')! };
  }

  it('when a user changes the password, then the current one is required, errors sit on their fields, and other browsers are signed out', async () => {
    const email = uniqueEmail('change');
    const { user } = await createTestUser(auth.deps, email, password);
    const other = await signIn(email, password, 'Other/1.0');
    const me = await signIn(email, password, 'Mine/1.0');

    const wrong = await me.agent
      .post('/account/password')
      .type('form')
      .send({ csrf_token: me.csrf, current_password: 'not it at all', new_password: 'a fresh passphrase' })
      .expect(400);
    expect(wrong.text).toContain('id="current_password-error">The current password is incorrect.');
    expect(wrong.text).toMatch(/id="current_password"[^>]*aria-describedby="current_password-error"/);
    const short = await me.agent
      .post('/account/password')
      .type('form')
      .send({ csrf_token: me.csrf, current_password: password, new_password: 'short' })
      .expect(400);
    expect(short.text).toContain('id="new_password-error">The new password must be at least 8 characters.');

    const changed = await me.agent
      .post('/account/password')
      .type('form')
      .send({ csrf_token: me.csrf, current_password: password, new_password: 'a fresh passphrase' })
      .expect(200);
    expect(changed.text).toContain('Password changed. 1 other sign-in(s) ended.');
    await me.agent.get('/account').expect(200);
    await other.agent.get('/account').expect(303);
    expect(await auth.deps.sessions.listOf(user.id)).toHaveLength(1);
    await signIn(email, 'a fresh passphrase', 'Again/1.0');
  });

  it('when a user lists sessions, then each browser shows, one can be ended, another user cannot end them, and sign out everywhere ends all', async () => {
    const email = uniqueEmail('sessions');
    const { user } = await createTestUser(auth.deps, email, password);
    const laptop = await signIn(email, password, 'Laptop Browser/2.0');
    const phone = await signIn(email, password, 'Phone Browser/3.0');
    const page = (await phone.agent.get('/account').expect(200)).text;
    expect(page).toContain('Laptop Browser/2.0');
    expect(page).toContain('Phone Browser/3.0 <strong>(this browser)</strong>');

    const listed = await auth.deps.sessions.listOf(user.id);
    const laptopSession = listed.find((session) => session.userAgent === 'Laptop Browser/2.0')!;
    // Another user posting this session's id ends nothing.
    const strangerEmail = uniqueEmail('stranger');
    await createTestUser(auth.deps, strangerEmail, password);
    const stranger = await signIn(strangerEmail, password, 'Stranger/1.0');
    await stranger.agent
      .post(`/account/sessions/${laptopSession.id}/end`)
      .type('form')
      .send({ csrf_token: stranger.csrf })
      .expect(303);
    await laptop.agent.get('/account').expect(200);

    await phone.agent
      .post(`/account/sessions/${laptopSession.id}/end`)
      .type('form')
      .send({ csrf_token: phone.csrf })
      .expect(303);
    await laptop.agent.get('/account').expect(303);
    await phone.agent.get('/account').expect(200);

    const again = await signIn(email, password, 'Tablet/1.0');
    const everywhere = await phone.agent
      .post('/account/sessions/end-all')
      .type('form')
      .send({ csrf_token: phone.csrf })
      .expect(303);
    expect(everywhere.headers.location).toBe('/login');
    await phone.agent.get('/account').expect(303);
    await again.agent.get('/account').expect(303);
    expect(await auth.deps.redis.smembers(userSessionsKey(user.id))).toEqual([]);
    await stranger.agent.get('/account').expect(200);
  });
});
