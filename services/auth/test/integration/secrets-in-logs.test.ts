import { createLogger } from '@pfs/logger';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { obtainTokens } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/** Common brief "no secret in logs": every request line is logged, with its URL. */
describe('secrets and the request log', () => {
  const lines: string[] = [];
  const logger = createLogger({
    name: 'auth',
    level: 'info',
    destination: { write: (line) => lines.push(line) },
  });
  const auth = useAuthTestApp({}, logger);
  const password = 'correct horse battery';

  it('when an older client revokes with the token in the query string, then the grant ends and the token is not in the log', async () => {
    const email = uniqueEmail('log');
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps);
    const tokens = await obtainTokens(auth.app, client, { email, password });
    await request(auth.app)
      .delete(`/oauth2/revoke?token=${tokens.refresh_token}&token_type_hint=refresh_token`)
      .auth(client.client_id, client.client_secret)
      .expect(204);
    const refreshed = await request(auth.app)
      .post('/oauth2/token')
      .auth(client.client_id, client.client_secret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
      .expect(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    await new Promise((resolve) => setImmediate(resolve));

    const log = lines.join('');
    expect(log).toContain('/oauth2/revoke?token_type_hint=refresh_token');
    for (const secret of [tokens.refresh_token, tokens.access_token, client.client_secret, password]) {
      expect(log).not.toContain(secret);
    }
  });
});
