import { hashToken } from '@pfs/contracts';
import { startHttpServer, RunningHttpServer } from '@pfs/http';
import { uniqueEmail } from '@pfs/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import type { AuthDependencies } from '../../src/dependencies';
import { approveInBrowser } from '../support/browser-flow';
import { createTestUser, useAuthTestApp } from '../support/auth-test-app';
import { useResourceApi } from '../support/resource-api';

const CALLBACK = 'https://client.example.test/callback';
const PASSWORD = 'correct horse battery';

/** A client registered with the id and secret given: real secrets are random, these hold every awkward character. */
async function clientWithSecret(deps: AuthDependencies, secret: string) {
  const id = `compat-${randomBytes(4).toString('hex')}_id`;
  await deps.repos.clients.create({
    id,
    name: 'Compat client',
    secretHash: hashToken(secret),
    redirectUri: CALLBACK,
    scope: 'user:r entries:rw',
    grants: ['authorization_code', 'refresh_token'],
    ownerUserId: null,
  });
  return { client_id: id, client_secret: secret };
}

/** RFC 6749 Appendix B: application/x-www-form-urlencoded, as oauth4webapi writes it (`-`, `_` too). */
const formEncode = (value: string) =>
  encodeURIComponent(value)
    .replace(/[-_.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Issue 10 and the reference's §0b/§2: what existing OAuth clients send. Token requests with client Basic
 * (form-encoded as RFC 6749 §2.3.1 says, or plain as older clients do) and form bodies; revoke in the spec's
 * form (Bearer + refresh_token) and in the older `DELETE` form with client Basic.
 */
describe('OAuth client compatibility', () => {
  const auth = useAuthTestApp();
  const api = useResourceApi();
  let email: string;

  beforeAll(async () => {
    email = uniqueEmail('compat');
    await createTestUser(auth.deps, email, PASSWORD);
  });

  async function code(clientId: string, state?: string) {
    const { location } = await approveInBrowser(auth.app, {
      authorizeQuery: { response_type: 'code', client_id: clientId, ...(state ? { state } : {}) },
      email,
      password: PASSWORD,
    });
    return location;
  }

  function tokenRequest(authorization: string, form: Record<string, string>) {
    return request(auth.app)
      .post('/oauth2/token')
      .set('Authorization', authorization)
      .type('form')
      .send(form);
  }

  describe('with oauth4webapi, a standard client library, over HTTP', () => {
    let server: RunningHttpServer;
    beforeAll(async () => {
      server = await startHttpServer(auth.app, { port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => server?.stop());

    it('when the secret holds -, _, space, +, %, : and ~(!), then the code exchange, the refresh and the revocation succeed', async () => {
      const client = await clientWithSecret(auth.deps, 'se-cr_et with+plus%41:colon~(!)');
      const callback = await code(client.client_id, 'st-4_2');
      const script = join(__dirname, '../support/oauth4webapi-client.mjs');
      const input = {
        issuer: server.url,
        clientId: client.client_id,
        clientSecret: client.client_secret,
        callbackUrl: callback.toString(),
        redirectUri: CALLBACK,
        state: 'st-4_2',
      };
      const { stdout } = await promisify(execFile)(process.execPath, [script, JSON.stringify(input)]);
      const outcome = JSON.parse(stdout);

      // The library encoded both parts: the plain reading of its header names no client.
      const sent = Buffer.from(outcome.authorizations[0].slice('Basic '.length), 'base64').toString();
      expect(sent).toBe(`${formEncode(client.client_id)}:${formEncode(client.client_secret)}`);
      expect(sent).toContain('%2D');
      expect(sent).toContain('%5F');
      expect(outcome.exchanged).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
      expect(outcome.refreshed.access_token).not.toBe(outcome.exchanged.access_token);
      expect(outcome.revokeStatus).toBe(204);

      // The refreshed access token worked until the revocation ended the grant.
      await request(api.app)
        .get('/me')
        .set('Authorization', `Bearer ${outcome.refreshed.access_token}`)
        .expect(401);
      const refreshAgain = await tokenRequest(basic(client.client_id, client.client_secret), {
        grant_type: 'refresh_token',
        refresh_token: outcome.refreshed.refresh_token,
      });
      expect(refreshAgain.body.error).toBe('invalid_grant');
    });
  });

  describe('token requests with client Basic and form bodies', () => {
    it.each([
      ['form-encoded', formEncode],
      ['plain', (value: string) => value],
    ])(
      'when the Basic credentials are %s, then the code exchange and the refresh succeed',
      async (_, encode) => {
        const client = await clientWithSecret(auth.deps, `a-b_c d+e%2F${randomBytes(4).toString('hex')}`);
        const authorization = basic(encode(client.client_id), encode(client.client_secret));
        const exchanged = await tokenRequest(authorization, {
          grant_type: 'authorization_code',
          code: (await code(client.client_id)).searchParams.get('code')!,
        }).expect(200);
        await request(api.app)
          .get('/me')
          .set('Authorization', `Bearer ${exchanged.body.access_token}`)
          .expect(200);
        const refreshed = await tokenRequest(authorization, {
          grant_type: 'refresh_token',
          refresh_token: exchanged.body.refresh_token,
        }).expect(200);
        expect(refreshed.body).toMatchObject({ token_type: 'bearer', refresh_token: expect.any(String) });
      },
    );

    it('when a plain secret literally holds what looks like an escape (%2D), then it is read as written', async () => {
      const client = await clientWithSecret(auth.deps, 'literal%2Dsecret+plus');
      const callback = await code(client.client_id);
      await tokenRequest(basic(client.client_id, client.client_secret), {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
      }).expect(200);
      // Its decoded reading ("literal-secret plus") is another secret, and is refused.
      const refused = await tokenRequest(basic(client.client_id, 'literal-secret plus'), {
        grant_type: 'authorization_code',
        code: (await code(client.client_id)).searchParams.get('code')!,
      }).expect(401);
      expect(refused.body.error).toBe('invalid_client');
    });

    it('when the secret is wrong in either form, or its escapes are malformed, then 401 invalid_client', async () => {
      const client = await clientWithSecret(auth.deps, 'right-secret_1');
      for (const authorization of [
        basic(client.client_id, 'wrong-secret_1'),
        basic(formEncode(client.client_id), formEncode('wrong-secret_1')),
        basic(client.client_id, 'right%2Dsecret%5F1%'),
        basic(client.client_id, 'right%00secret'),
      ]) {
        const answer = await tokenRequest(authorization, { grant_type: 'refresh_token', refresh_token: 'x' });
        expect(answer.status).toBe(401);
        expect(answer.body.error).toBe('invalid_client');
        expect(answer.headers['www-authenticate']).toBe('Basic realm="pfs"');
      }
    });

    it('when the credentials come in the form body instead, then the exchange succeeds', async () => {
      const client = await clientWithSecret(auth.deps, 'body-secret_1 +%');
      await request(auth.app)
        .post('/oauth2/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code: (await code(client.client_id)).searchParams.get('code')!,
          client_id: client.client_id,
          client_secret: client.client_secret,
        })
        .expect(200);
    });
  });

  describe('revocation', () => {
    async function tokensFor(client: { client_id: string; client_secret: string }) {
      const answer = await tokenRequest(basic(client.client_id, client.client_secret), {
        grant_type: 'authorization_code',
        code: (await code(client.client_id)).searchParams.get('code')!,
      }).expect(200);
      return answer.body as { access_token: string; refresh_token: string };
    }

    it("when POST /oauth2/revoke carries Bearer <access_token> and form refresh_token (the spec's form), then 204 and the grant ends", async () => {
      const client = await clientWithSecret(auth.deps, 'revoke-bearer_1');
      const tokens = await tokensFor(client);
      await request(auth.app)
        .post('/oauth2/revoke')
        .set('Authorization', `Bearer ${tokens.access_token}`)
        .type('form')
        .send({ refresh_token: tokens.refresh_token })
        .expect(204);
      await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
    });

    it.each([
      ['form-encoded', formEncode],
      ['plain', (value: string) => value],
    ])(
      'when DELETE /oauth2/revoke carries %s client Basic and the token, then 204 and the grant ends',
      async (_, encode) => {
        const client = await clientWithSecret(auth.deps, 'revoke-basic_1 +');
        const tokens = await tokensFor(client);
        await request(auth.app)
          .delete('/oauth2/revoke')
          .set('Authorization', basic(encode(client.client_id), encode(client.client_secret)))
          .type('form')
          .send({ token: tokens.refresh_token })
          .expect(204);
        await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
        const refreshed = await tokenRequest(basic(client.client_id, client.client_secret), {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        });
        expect(refreshed.body.error).toBe('invalid_grant');
      },
    );

    it('when DELETE /oauth2/revoke carries a wrong encoded secret, then 401 invalid_client and the grant lives', async () => {
      const client = await clientWithSecret(auth.deps, 'revoke-wrong_1');
      const tokens = await tokensFor(client);
      const answer = await request(auth.app)
        .delete('/oauth2/revoke')
        .set('Authorization', basic(formEncode(client.client_id), formEncode('revoke-wrong_2')))
        .type('form')
        .send({ token: tokens.refresh_token })
        .expect(401);
      expect(answer.body.error).toBe('invalid_client');
      await request(api.app).get('/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
    });
  });
});
