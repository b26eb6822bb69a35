import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';

/** POST /me/push checks Windows channel URIs against WNS_CHANNEL_HOSTS, the list the worker sends to. */
describe('POST /me/push with WNS_CHANNEL_HOSTS configured', () => {
  let t: ApiTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startApiTestApp({ WNS_CHANNEL_HOSTS: ' notify.windows.com, WNS.Example.Test ' });
    user = await createTestUser(t.deps);
  });
  afterAll(() => t.close());

  const register = (token: string) =>
    request(t.app).post('/me/push').set('Authorization', user.auth).send({ type: 'windows', token });

  it('when a channel is on a host added to WNS_CHANNEL_HOSTS (or its subdomain), then it is registered', async () => {
    await register('https://wns.example.test/?token=abc').expect(204);
    await register('https://eu1.wns.example.test/?token=abc').expect(204);
    await register('https://db5.notify.windows.com/?token=abc').expect(204);
  });

  it('when a channel is on a host not in the list, then 400 naming token and the configured hosts', async () => {
    const answer = await register('https://wns.example.test.evil.example/?token=abc').expect(400);
    expect(answer.body.fields).toEqual([
      {
        field: 'token',
        error:
          'must be a WNS channel URI (https on notify.windows.com, wns.example.test or a subdomain) for type windows',
      },
    ]);
  });
});
