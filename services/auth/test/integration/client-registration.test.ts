import { uniqueEmail } from '@pfs/testing';
import { inputValue, signedInAgent } from '../support/browser-flow';
import { createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Registered applications (spec "Authentication"): where a redirect may send the user's browser. */
describe('registering an application on the developer page', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  async function register(redirectUri: string) {
    const email = uniqueEmail('dev-scheme');
    const { user } = await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const page = await agent.get('/developer').expect(200);
    const answer = await agent
      .post('/developer/apps')
      .type('form')
      .send({
        csrf_token: inputValue(page.text, 'csrf_token'),
        name: 'Scheme test',
        redirect_uri: redirectUri,
        scope: 'user:r',
      });
    return { answer, apps: await auth.deps.repos.clients.listByOwner(user.id) };
  }

  it.each([
    'javascript:alert(document.domain)',
    'data:text/html,<p>hi</p>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
  ])(
    'when the redirect URI is %s (a scheme that runs or reads in the browser), then 400 and nothing is registered',
    async (redirectUri) => {
      const { answer, apps } = await register(redirectUri);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('redirect URI must not use the');
      expect(apps).toHaveLength(0);
    },
  );

  it.each(['https://app.example.test/cb', 'http://127.0.0.1:8080/cb', 'com.example.budget:/oauth'])(
    'when the redirect URI is %s, then the application is registered',
    async (redirectUri) => {
      const { answer, apps } = await register(redirectUri);
      expect(answer.status).toBe(201);
      expect(apps).toHaveLength(1);
    },
  );
});
