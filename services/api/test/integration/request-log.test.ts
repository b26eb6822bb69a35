import { capturingLogger } from '@pfs/testing';
import request from 'supertest';
import { obtainTokens } from '../../../auth/test/support/browser-flow';
import {
  createTestClient,
  createTestUser as createAuthUser,
  startAuthTestApp,
} from '../../../auth/test/support/auth-test-app';
import { uniqueEmail } from '@pfs/testing';
import { buildApiApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { createApiDependencies } from '../../src/dependencies';
import { createTestUser } from '../support/api-test-app';

/** Operators trace a request to who made it: each request line names the user and client ids, never a token. */
describe('request log lines', () => {
  it('when the API serves an authenticated request, then its line carries the user and client ids and no token', async () => {
    const { logger, lines } = capturingLogger('api');
    const deps = await createApiDependencies(loadApiConfig(process.env), logger);
    try {
      const user = await createTestUser(deps, 'user:r');
      await request(buildApiApp(deps))
        .get('/me')
        .set('Authorization', user.auth)
        .set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')
        .expect(200);
      await new Promise((resolve) => setImmediate(resolve));
      const line = lines.find((entry) => entry.msg === 'request completed');
      expect(line).toMatchObject({
        req: { method: 'GET', url: '/me' },
        res: { statusCode: 200 },
        userId: user.userId,
        clientId: 'test-client',
        traceId: '0af7651916cd43dd8448eb211c80319c',
      });
      expect(JSON.stringify(lines)).not.toContain(user.token);
    } finally {
      await deps.close();
    }
  });

  it('when the token endpoint grants a token, then its line carries the user and client ids and no token', async () => {
    const { logger, lines } = capturingLogger('auth');
    const auth = await startAuthTestApp({}, logger);
    try {
      const email = uniqueEmail('log');
      const user = await createAuthUser(auth.deps, email, 'correct horse battery');
      const client = await createTestClient(auth.deps);
      const tokens = await obtainTokens(auth.app, client, { email, password: 'correct horse battery' });
      await new Promise((resolve) => setImmediate(resolve));
      const grant = lines.find(
        (entry) => (entry.req as { url?: string } | undefined)?.url === '/oauth2/token',
      );
      expect(grant).toMatchObject({
        res: { statusCode: 200 },
        userId: user.user.id,
        clientId: client.client_id,
      });
      const log = JSON.stringify(lines);
      for (const secret of [tokens.access_token, tokens.refresh_token, client.client_secret]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await auth.deps.close();
    }
  });
});
