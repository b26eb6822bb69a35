import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { inputValue } from '../support/browser-flow';
import { createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Session fixation (OWASP): a session id known before a sign-in must never work after it. */
describe('sessions at sign-in', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  const sessionOf = (answer: request.Response) =>
    /pfs_session=([^;]+)/.exec(String(answer.headers['set-cookie']))?.[1];

  async function signIn(agent: ReturnType<typeof request.agent>, email: string) {
    const page = await agent.get('/login').expect(200);
    const answer = await agent
      .post('/login')
      .type('form')
      .send({ email, password, csrf_token: inputValue(page.text, 'csrf_token') })
      .expect(303);
    return sessionOf(answer)!;
  }

  it('when a browser signs in again (as another account), then it gets a new session id and the previous one stops working', async () => {
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await createTestUser(auth.deps, first, password);
    await createTestUser(auth.deps, second, password);
    const agent = request.agent(auth.app);
    const before = await signIn(agent, first);
    const after = await signIn(agent, second);
    expect(after).not.toBe(before);
    await request(auth.app).get('/account').set('Cookie', `pfs_session=${before}`).expect(303);
    const account = await request(auth.app).get('/account').set('Cookie', `pfs_session=${after}`).expect(200);
    expect(account.text).toContain(second);
  });

  it('when a session id was planted in the browser before sign-in, then sign-in does not adopt it', async () => {
    const email = uniqueEmail('planted');
    await createTestUser(auth.deps, email, password);
    const planted = 'attacker-chosen-session-id-0123456789abcdef';
    const agent = request.agent(auth.app);
    agent.jar.setCookie(`pfs_session=${planted}`, '127.0.0.1', '/');
    const issued = await signIn(agent, email);
    expect(issued).not.toBe(planted);
    await request(auth.app).get('/account').set('Cookie', `pfs_session=${planted}`).expect(303);
  });
});
