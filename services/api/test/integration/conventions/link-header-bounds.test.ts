import { startHttpServer, RunningHttpServer } from '@pfs/http';
import { ApiTestApp, createTag, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';

/**
 * Over a real socket with Node's standard client (fetch refuses response headers past 16 KB): a list's
 * Link header carries the parameters the list declares (its hyper-schema link) and no stray ones.
 */
describe('Link header bounds', () => {
  let t: ApiTestApp;
  let server: RunningHttpServer;
  let user: TestUser;
  beforeAll(async () => {
    t = await startApiTestApp();
    server = await startHttpServer(t.app, { port: 0 });
    user = await createTestUser(t.deps);
    for (let i = 0; i < 12; i += 1) await createTag(t.app, user, { name: `tag ${i}`, type: 'expense' });
  });
  afterAll(async () => {
    await server.stop(100);
    await t.close();
  });

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { Authorization: user.auth } });

  // 12 KB: Node takes request heads up to 16 KB; copied into four links it made a 48 KB response header.
  it('when a list is asked with a 12 KB parameter it does not know, then it answers with a small Link', async () => {
    const junk = 'x'.repeat(12 * 1024);
    const answer = await get(`/tags?per_page=10&type=expense&utm_source=${junk}`);
    expect(answer.status).toBe(200);
    const link = answer.headers.get('link')!;
    expect(link.length).toBeLessThan(1_000);
    expect(link).not.toContain('utm_source');
    // What the list understands is still carried to the next page.
    expect(link).toMatch(/<\/tags\?page=1&per_page=10&type=expense&cursor=[^>]+>; rel="next"/);
    expect(await answer.json()).toHaveLength(10);
  });

  it('when a declared parameter is long, then the Link header still stays bounded', async () => {
    // 400 ids (the list's limit is 500) of 7 digits: 3.2 KB, four times over in the links.
    const ids = Array.from({ length: 400 }, (_, i) => String(1_000_000 + i)).join(',');
    const answer = await get(`/tags?per_page=10&ids=${ids}`);
    expect(answer.status).toBe(200);
    const link = answer.headers.get('link')!;
    expect(link.length).toBeLessThanOrEqual(4096);
    expect(link).toContain('</tags?page=0&per_page=10>; rel="first"');
  });
});
