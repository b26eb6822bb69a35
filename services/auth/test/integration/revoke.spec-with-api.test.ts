import { accessTokenKey, hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { inputValue, obtainTokens, signedInAgent } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';
import { useResourceApi } from '../support/resource-api';

/** Spec "Revoking" and "a user can revoke application access at any time"; RFC 7009. */
describe('revoking access, seen by the resource API', () => {
  const auth = useAuthTestApp();
  const api = useResourceApi();
  const password = 'correct horse battery';

  async function connectedApp() {
    const email = uniqueEmail('revoke');
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, { name: 'Pocket Ledger', scope: 'user:r' });
    const tokens = await obtainTokens(auth.app, client, { email, password });
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
    const refresh = () =>
      request(auth.app)
        .post('/oauth2/token')
        .auth(client.client_id, client.client_secret)
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    return { email, client, tokens, refresh };
  }

  it('when the app posts its Bearer token and refresh_token, then 204, the API refuses the token at once and refresh fails', async () => {
    const { tokens, refresh } = await connectedApp();
    const answer = await request(auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .type('form')
      .send({ refresh_token: tokens.refresh_token })
      .expect(204);
    expect(answer.text).toBe('');
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
    expect((await refresh().expect(400)).body.error).toBe('invalid_grant');
    const rows = await auth.deps.dataSource.query(
      `SELECT count(*)::int AS live FROM oauth_tokens WHERE grant_id =
         (SELECT grant_id FROM oauth_tokens WHERE token_hash = $1) AND revoked_at IS NULL`,
      [hashToken(tokens.access_token)],
    );
    expect(rows[0].live).toBe(0);
  });

  it('when refresh_token is missing, then 400 invalid_request and nothing is revoked', async () => {
    const { tokens } = await connectedApp();
    const answer = await request(auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .type('form')
      .send({})
      .expect(400);
    expect(answer.body.error).toBe('invalid_request');
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
  });

  it('when the refresh_token belongs to another grant, then 400 invalid_grant and neither grant is touched', async () => {
    const mine = await connectedApp();
    const theirs = await connectedApp();
    const answer = await request(auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', `Bearer ${mine.tokens.access_token}`)
      .type('form')
      .send({ refresh_token: theirs.tokens.refresh_token })
      .expect(400);
    expect(answer.body.error).toBe('invalid_grant');
    await request(api.app)
      .get('/me')
      .set('Authorization', `Bearer ${theirs.tokens.access_token}`)
      .expect(200);
  });

  it('when the Bearer token is unknown, then 401 invalid_token with a challenge', async () => {
    const answer = await request(auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', 'Bearer nope')
      .type('form')
      .send({ refresh_token: 'x' })
      .expect(401);
    expect(answer.body.error).toBe('invalid_token');
    expect(answer.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('when an older client sends DELETE with its Basic credentials and the token, then 204 and the grant ends', async () => {
    const { client, tokens, refresh } = await connectedApp();
    await request(auth.app)
      .delete('/oauth2/revoke')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ token: tokens.refresh_token })
      .expect(204);
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
    expect((await refresh().expect(400)).body.error).toBe('invalid_grant');
  });

  it('when DELETE comes with wrong client credentials, then 401 invalid_client and the token lives', async () => {
    const { client, tokens } = await connectedApp();
    await request(auth.app)
      .delete(`/oauth2/revoke?token=${tokens.access_token}`)
      .auth(client.client_id, 'wrong-secret')
      .expect(401);
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
  });

  it("when another client DELETEs this client's token, then 204 but nothing is revoked (RFC 7009 §2.1)", async () => {
    const { tokens } = await connectedApp();
    const other = await createTestClient(auth.deps);
    await request(auth.app)
      .delete('/oauth2/revoke')
      .auth(other.client_id, other.client_secret)
      .type('form')
      .send({ token: tokens.access_token })
      .expect(204);
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
  });

  it('when the user revokes the app in account settings, then its refresh gives invalid_grant and its token 401 at the API', async () => {
    const { email, tokens, refresh } = await connectedApp();
    const { agent } = await signedInAgent(auth.app, email, password);
    const account = await agent.get('/account').expect(200);
    expect(account.text).toContain('Pocket Ledger');
    const action = /action="(\/account\/apps\/[^"]+\/revoke)"/.exec(account.text)![1];
    await agent
      .post(action)
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(303);
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
    expect((await refresh().expect(400)).body.error).toBe('invalid_grant');
    expect(await auth.deps.redis.get(accessTokenKey(hashToken(tokens.access_token)))).toBeNull();
    const after = await agent.get('/account').expect(200);
    expect(after.text).not.toContain('Pocket Ledger');
  });

  it('when access was revoked, then the app recovers by asking the user again and gets working tokens', async () => {
    const { email, client, tokens } = await connectedApp();
    await request(auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .type('form')
      .send({ refresh_token: tokens.refresh_token })
      .expect(204);
    const again = await obtainTokens(auth.app, client, { email, password });
    await request(api.app).get('/me').set('Authorization', `Bearer ${again.access_token}`).expect(200);
    await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
  });
});
