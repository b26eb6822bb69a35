import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  issueToken,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

describe('caching and media types', () => {
  let t: ApiTestApp;
  let user: TestUser;
  beforeAll(async () => {
    // A one-day window keeps X-RateLimit-Remaining from decaying between the requests compared below.
    t = await startApiTestApp({ RATE_LIMIT_WINDOW_SECONDS: '86400' });
    user = await createTestUser(t.deps);
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    request(t.app).get(path).set('Authorization', user.auth).set(headers);

  it('when an object is fetched again with its ETag or Last-Modified, then 304 with no body', async () => {
    const id = await createCategory(t.app, user, { name: 'Cache', type: 'expense' });
    const first = await get(`/categories/${id}`).expect(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['last-modified']).toBeDefined();
    const byEtag = await get(`/categories/${id}`, { 'If-None-Match': first.headers.etag }).expect(304);
    expect(byEtag.text).toBe('');
    expect(byEtag.headers.etag).toBe(first.headers.etag);
    await get(`/categories/${id}`, { 'If-Modified-Since': first.headers['last-modified'] }).expect(304);
    await get(`/categories/${id}`, { 'If-None-Match': '"other"' }).expect(200);
    await request(t.app)
      .put(`/categories/${id}`)
      .set('Authorization', user.auth)
      .send({ ...first.body, name: 'Changed' });
    const changed = await get(`/categories/${id}`, { 'If-None-Match': first.headers.etag }).expect(200);
    expect(changed.body.name).toBe('Changed');
  });

  it('when a list is unchanged, then 304 repeats Link, X-Total-Count and Service-Modified', async () => {
    const list = await get('/categories?per_page=10').expect(200);
    const again = await get('/categories?per_page=10', { 'If-None-Match': list.headers.etag }).expect(304);
    expect(again.headers.link).toBeDefined();
    expect(again.headers.link.replace(/cursor=[^>&]+/, '')).toBe(
      list.headers.link.replace(/cursor=[^>&]+/, ''),
    );
    expect(again.headers['x-total-count']).toBe(list.headers['x-total-count']);
    expect(again.headers['service-modified']).toBe(list.headers['service-modified']);
  });

  it('when a 304 is answered, then it does not count against the rate limit', async () => {
    const id = await createCategory(t.app, user, { name: 'Free', type: 'expense' });
    const first = await get(`/categories/${id}`).expect(200);
    const before = (await get('/rate-limit').expect(200)).body.remaining;
    for (let i = 0; i < 3; i++) {
      const answer = await get(`/categories/${id}`, { 'If-None-Match': first.headers.etag }).expect(304);
      expect(Number(answer.headers['x-ratelimit-remaining'])).toBe(before);
    }
    await new Promise((resolve) => setTimeout(resolve, 50)); // the refund is fire-and-forget
    expect((await get('/rate-limit').expect(200)).body.remaining).toBe(before);
  });

  it('when the cached object was deleted, or auth or scope fail, then no 304 is given', async () => {
    const id = await createCategory(t.app, user, { name: 'Gone', type: 'expense' });
    const first = await get(`/categories/${id}`).expect(200);
    await request(t.app).get(`/categories/${id}`).set('If-None-Match', first.headers.etag).expect(401);
    const readsTagsOnly = await issueToken(t.deps, user.userId, 'tags:r');
    await request(t.app)
      .get(`/categories/${id}`)
      .set('Authorization', readsTagsOnly.auth)
      .set('If-None-Match', first.headers.etag)
      .expect(403);
    await request(t.app).delete(`/categories/${id}`).set('Authorization', user.auth).expect(204);
    await get(`/categories/${id}`, { 'If-None-Match': first.headers.etag }).expect(404);
  });

  it('when Accept varies, then the vendor type (with profile) or JSON is sent, and anything else is 406', async () => {
    const profile = 'application/vnd.service+json; profile=http://127.0.0.1:3000/schema/me#';
    expect((await get('/me').expect(200)).headers['content-type']).toBe(profile);
    expect(
      (await get('/me', { Accept: 'application/vnd.service+json; version=1' }).expect(200)).headers[
        'content-type'
      ],
    ).toBe(profile);
    expect(
      (await get('/me', { Accept: 'application/vnd.service+json,application/json' })).headers['content-type'],
    ).toBe(profile);
    expect((await get('/me', { Accept: '*/*' })).headers['content-type']).toBe(profile);
    expect((await get('/me', { Accept: 'application/json' }).expect(200)).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    const badVersion = await get('/me', { Accept: 'application/vnd.service+json; version=2' }).expect(406);
    expect(badVersion.body).toMatchObject({
      error_id: 'error.not_acceptable',
      description: expect.stringContaining('1'),
    });
    const html = await get('/me', { Accept: 'text/html' }).expect(406);
    expect(html.headers['x-ratelimit-remaining']).toBeDefined();
    await get('/me', { Accept: 'application/xml, text/csv;q=0.5' }).expect(406);
  });

  it('when a body is not JSON, then 415; when JSON is malformed, then 400', async () => {
    const xml = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/xml')
      .send('<category/>')
      .expect(415);
    expect(xml.body.error_id).toBe('error.unsupported_media_type');
    const broken = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    expect(broken.body.error_id).toBe('error.input');
    await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/vnd.service+json')
      .send(JSON.stringify({ name: 'Vendor', type: 'income' }))
      .expect(201);
  });

  it('when an unknown route or a server fault happens, then the one error body is used', async () => {
    const wrongMethod = await request(t.app)
      .delete('/categories')
      .set('Authorization', user.auth)
      .expect(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD, POST');
    expect(wrongMethod.body.error_id).toBe('error.method.not_allowed');
    const missing = await get('/nowhere').expect(404);
    expect(missing.body).toMatchObject({
      error_id: 'error.route.not_found',
      description: expect.any(String),
    });
  });
});
