import { uniqueEmail } from '@pfs/testing';
import { approveInBrowser, exchangeCode, inputValue } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Spec "A user can revoke application access at any time": a code still in flight must die with its grant. */
describe('codes of a revoked grant', () => {
  const auth = useAuthTestApp();
  const password = 'correct horse battery';

  it('when the user revokes the app before its code is exchanged, then the code gets invalid_grant and issues nothing', async () => {
    const email = uniqueEmail('revoke-in-flight');
    const { user } = await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps);
    const { location, agent } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: client.client_id },
      email,
      password,
    });
    const account = await agent.get('/account').expect(200);
    await agent
      .post(`/account/apps/${client.client_id}/revoke`)
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(303);

    const answer = await exchangeCode(auth.app, client, { code: location.searchParams.get('code')! }).expect(
      400,
    );
    expect(answer.body.error).toBe('invalid_grant');
    const [{ count }] = await auth.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM oauth_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(count).toBe(0);
  });
});
