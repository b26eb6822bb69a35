import { accessTokenKey, hashToken, personalTokenUsedKey } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { restoreIntrospectionRecords } from '../../src/use-cases/restore-introspection.use-case';
import { inputValue, obtainTokens, signedInAgent } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';
import { useResourceApi } from '../support/resource-api';

/** Spec "Authentication" 2 (long-lived tokens from account settings); toshl-api-facts §0b (Basic and Bearer). */
describe('personal tokens', () => {
  const auth = useAuthTestApp();
  const api = useResourceApi();
  const password = 'correct horse battery';

  async function createToken(name: string) {
    const email = uniqueEmail('pat');
    await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const account = await agent.get('/account').expect(200);
    const created = await agent
      .post('/account/tokens')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token'), name })
      .expect(200);
    const token = /id="new-token">([^<]+)</.exec(created.text)![1];
    return { email, agent, token, page: created.text };
  }

  it('when a user creates a token, then it is shown once, stored only hashed, and the API accepts it as Basic and as Bearer', async () => {
    const { email, agent, token } = await createToken('Spreadsheet sync');
    expect(token).toMatch(/^pfs_pt_[A-Za-z0-9_-]{43}$/);
    const stored = await auth.deps.dataSource.query(
      `SELECT token_hash, name FROM oauth_tokens WHERE kind = 'personal' AND token_hash = $1`,
      [hashToken(token)],
    );
    expect(stored).toEqual([{ token_hash: hashToken(token), name: 'Spreadsheet sync' }]);

    const basic = await request(api.app).get('/me').auth(token, '').expect(200);
    expect(basic.body.email).toBe(email);
    const bearer = await request(api.app).get('/me').set('Authorization', `Bearer ${token}`).expect(200);
    expect(bearer.body.email).toBe(email);

    const later = await agent.get('/account').expect(200);
    expect(later.text).toContain('Spreadsheet sync');
    expect(later.text).not.toContain(token);
  });

  it('when the API is called with the token, then the list shows when it was last used', async () => {
    const { agent, token } = await createToken('Phone');
    const before = await agent.get('/account').expect(200);
    expect(before.text).toMatch(/<td>Phone<\/td>\s*<td>[^<]+<\/td>\s*<td>never<\/td>/);
    const usedAt = Date.now();
    await request(api.app).get('/me').auth(token, '').expect(200);
    // The API records the use fire-and-forget; give its Redis write a moment.
    const [row] = await auth.deps.dataSource.query(`SELECT id FROM oauth_tokens WHERE token_hash = $1`, [
      hashToken(token),
    ]);
    for (let i = 0; i < 50 && !(await auth.deps.redis.get(personalTokenUsedKey(String(row.id)))); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const after = await agent.get('/account').expect(200);
    const shown = /<td>Phone<\/td>\s*<td>[^<]+<\/td>\s*<td>([^<]+)<\/td>/.exec(after.text)![1];
    expect(shown).not.toBe('never');
    const shownAt = Date.parse(shown.replace(' UTC', 'Z').replace(' ', 'T'));
    expect(Math.abs(shownAt - usedAt)).toBeLessThan(120_000);
  });

  it('when the user revokes the token, then the API refuses it at once', async () => {
    const { agent, token } = await createToken('Old laptop');
    const account = await agent.get('/account').expect(200);
    const action = /action="(\/account\/tokens\/\d+\/revoke)"/.exec(account.text)![1];
    await agent
      .post(action)
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(303);
    await request(api.app).get('/me').auth(token, '').expect(401);
    const after = await agent.get('/account').expect(200);
    expect(after.text).not.toContain('Old laptop');
  });

  it("when a user tries to revoke another user's token, then it is not found and the token keeps working", async () => {
    const victim = await createToken('Victim token');
    const [row] = await auth.deps.dataSource.query(`SELECT id FROM oauth_tokens WHERE token_hash = $1`, [
      hashToken(victim.token),
    ]);
    const attacker = await createToken('Attacker token');
    const account = await attacker.agent.get('/account').expect(200);
    const answer = await attacker.agent
      .post(`/account/tokens/${row.id}/revoke`)
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(400);
    expect(answer.text).toContain('not found');
    await request(api.app).get('/me').auth(victim.token, '').expect(200);
  });

  it('when the name is empty, then the page says the name is required', async () => {
    const { agent } = await createToken('first');
    const account = await agent.get('/account').expect(200);
    const answer = await agent
      .post('/account/tokens')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token'), name: '   ' })
      .expect(400);
    expect(answer.text).toContain('name is required');
  });

  it('when Redis lost the records, then restoring from Postgres brings back live tokens and not revoked ones', async () => {
    const live = await createToken('Keeps working');
    const gone = await createToken('Revoked');
    const account = await gone.agent.get('/account').expect(200);
    const action = /action="(\/account\/tokens\/\d+\/revoke)"/.exec(account.text)![1];
    await gone.agent
      .post(action)
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token') })
      .expect(303);
    const email = uniqueEmail();
    await createTestUser(auth.deps, email, password);
    const oauth = await obtainTokens(auth.app, await createTestClient(auth.deps, { scope: 'user:r' }), {
      email,
      password,
    });

    const keyOf = (token: string) => accessTokenKey(hashToken(token));
    for (const token of [live.token, gone.token, oauth.access_token]) {
      await auth.deps.redis.del(keyOf(token));
    }
    // The restore itself, before any request: the API's fallback (docs/operations.md) would re-warm a record too.
    // Pages of 3, so the walk crosses pages (this run's database holds other suites' live tokens as well).
    expect(await restoreIntrospectionRecords(auth.deps, 3)).toBeGreaterThanOrEqual(2);
    expect(await auth.deps.redis.exists(keyOf(live.token))).toBe(1);
    expect(await auth.deps.redis.exists(keyOf(oauth.access_token))).toBe(1);
    expect(await auth.deps.redis.exists(keyOf(gone.token))).toBe(0);
    await request(api.app).get('/me').auth(live.token, '').expect(200);
    await request(api.app).get('/me').set('Authorization', `Bearer ${oauth.access_token}`).expect(200);
    await request(api.app).get('/me').auth(gone.token, '').expect(401);
    const ttl = await auth.deps.redis.ttl(accessTokenKey(hashToken(oauth.access_token)));
    expect(ttl).toBeGreaterThan(3500);
    expect(ttl).toBeLessThanOrEqual(3600);
  });
});
