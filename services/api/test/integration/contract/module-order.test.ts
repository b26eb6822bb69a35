import type { Express } from 'express';
import request from 'supertest';
import { buildApiApp } from '../../../src/app';
import { apiModules } from '../../../src/modules';
import { createCategory, createTestUser, startApiTestApp, type ApiTestApp } from '../../support/api-test-app';

/** The modules in another order: reversed, then every other one moved to the front. */
const reordered = [
  [...apiModules].reverse(),
  [...apiModules.filter((_, i) => i % 2 === 1), ...apiModules.filter((_, i) => i % 2 === 0)],
];

/** What a client sees of an answer, without what differs between any two requests (date, request id). */
async function seen(app: Express, method: 'get' | 'post' | 'delete' | 'put', path: string, auth?: string) {
  const call = request(app)[method](path);
  if (auth) call.set('Authorization', auth);
  const answer = await call;
  return {
    status: answer.status,
    allow: answer.headers.allow,
    etag: answer.headers.etag,
    type: answer.headers['content-type'],
    body: answer.text.replace(/"(error_id|request_id|id)":"[^"]*"/g, ''),
  };
}

describe('the order of the API modules', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp();
  });
  afterAll(() => t.close());

  it('when the modules are mounted in another order, then the published documents are the same bytes', async () => {
    const schemaNames = (await request(t.app).get('/schema').expect(200)).body.links.map(
      (link: { rel: string }) => link.rel,
    );
    const paths = [
      '/',
      '/schema',
      '/openapi.json',
      '/docs',
      ...schemaNames.map((name: string) => `/schema/${name}`),
    ];
    for (const modules of reordered) {
      const other = buildApiApp(t.deps, modules);
      for (const path of paths) {
        expect({ path, ...(await seen(other, 'get', path)) }).toEqual({
          path,
          ...(await seen(t.app, 'get', path)),
        });
      }
    }
  });

  it('when the modules are mounted in another order, then answers and 405s are the same', async () => {
    const user = await createTestUser(
      t.deps,
      'user:rw categories:rw tags:rw entries:rw accounts:rw budgets:rw images:rw locations:r',
    );
    const category = await createCategory(t.app, user, { name: 'Food', type: 'expense' });
    const sums = 'from=2025-01-01&to=2025-01-31&currency=EUR';
    const asked: Array<['get' | 'post' | 'delete' | 'put', string]> = [
      ['get', '/rate-limit'],
      ['get', '/me'],
      ['get', `/me/summary?from=2025-01-01&to=2025-01-31`],
      ['post', '/me'],
      ['get', `/categories/${category}`],
      ['get', `/categories/sums?${sums}`],
      ['get', `/tags/sums?${sums}`],
      ['put', '/tags/sums'],
      ['get', '/tags?per_page=10'],
      ['get', `/entries/sums?${sums}`],
      ['get', '/entries/timeline?from=2025-01-01&to=2025-01-31'],
      ['get', '/entries/locations'],
      ['delete', '/entries/locations'],
      ['get', '/currencies/EUR'],
      ['delete', '/currencies'],
      ['get', '/accounts?per_page=10'],
      ['post', '/accounts/1/move'],
      ['get', `/budgets?from=2025-01-01&to=2025-01-31`],
      ['put', '/budgets/reorder'],
      ['get', '/me/notifications'],
      ['get', '/me/notifications/dismiss_all'],
      ['put', '/exports'],
      ['get', '/images/1/thumb.jpg'],
      ['post', '/images/1/thumb.jpg'],
      ['get', '/nowhere'],
    ];
    for (const modules of reordered) {
      const other = buildApiApp(t.deps, modules);
      for (const [method, path] of asked) {
        const expected = await seen(t.app, method, path, user.auth);
        expect({ method, path, ...(await seen(other, method, path, user.auth)) }).toEqual({
          method,
          path,
          ...expected,
        });
      }
    }
  });
});
