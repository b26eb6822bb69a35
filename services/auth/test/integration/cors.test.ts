import request from 'supertest';
import { createTestClient, useAuthTestApp } from '../support/auth-test-app';

const ALLOWED = 'http://127.0.0.2:5173';

/** Issue 14 point 8: browser apps reach the token, revoke and metadata endpoints; the pages stay same-origin. */
describe('CORS on the auth service', () => {
  const auth = useAuthTestApp({ CORS_ORIGINS: ALLOWED });
  const closed = useAuthTestApp({ CORS_ORIGINS: '' });

  it.each(['/oauth2/token', '/oauth2/revoke'])(
    'when an allowed origin sends a preflight to %s, then 204 allows it without any credentials',
    async (path) => {
      const answer = await request(auth.app)
        .options(path)
        .set('Origin', ALLOWED)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type,x-service-otp,authorization')
        .expect(204);
      expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(answer.headers['access-control-allow-headers']).toMatch(/X-Service-OTP/);
    },
  );

  it('when an allowed origin gets a token error, then the page can read it and its challenge', async () => {
    const client = await createTestClient(auth.deps);
    const answer = await request(auth.app)
      .post('/oauth2/token')
      .set('Origin', ALLOWED)
      .auth(client.client_id, 'wrong')
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: 'x' })
      .expect(401);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(answer.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);
    expect(answer.headers['access-control-expose-headers']).toMatch(/X-Service-OTP/);
  });

  it('when the metadata document is fetched from an allowed origin, then it is readable', async () => {
    const answer = await request(auth.app)
      .get('/.well-known/oauth-authorization-server')
      .set('Origin', ALLOWED)
      .expect(200);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('when an origin not in CORS_ORIGINS calls the token endpoint, then no Access-Control-Allow-Origin', async () => {
    const answer = await request(auth.app)
      .options('/oauth2/token')
      .set('Origin', 'http://127.0.0.3:5173')
      .set('Access-Control-Request-Method', 'POST');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when an allowed origin asks for a page (sign-in), then no CORS: the pages are not an API', async () => {
    const answer = await request(auth.app).get('/login').set('Origin', ALLOWED).expect(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when CORS_ORIGINS is not set, then no origin is allowed', async () => {
    const answer = await request(closed.app)
      .options('/oauth2/token')
      .set('Origin', ALLOWED)
      .set('Access-Control-Request-Method', 'POST');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});
