import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../support/api-test-app';

describe('hyper-schema, OpenAPI and docs', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp();
  });
  afterAll(() => t.close());

  it('when /schema/<resource> is fetched, then a JSON Hyper-Schema with links and submission schemas comes back', async () => {
    const answer = await request(t.app).get('/schema/categories').expect(200);
    expect(answer.headers['content-type']).toContain('application/schema+json');
    expect(answer.body).toMatchObject({
      $schema: 'https://json-schema.org/draft/2019-09/hyper-schema',
      $id: 'http://127.0.0.1:3000/schema/categories',
      properties: { name: { type: 'string', maxLength: 100 }, id: { readOnly: true } },
      $defs: {
        create: { required: ['name', 'type'] },
        update: { required: expect.arrayContaining(['modified']) },
      },
    });
    const rels = answer.body.links.map((link: { rel: string }) => link.rel);
    expect(rels).toEqual(
      expect.arrayContaining(['list', 'create', 'self', 'update', 'patch', 'delete', 'merge']),
    );
    const again = await request(t.app)
      .get('/schema/categories')
      .set('If-None-Match', answer.headers.etag)
      .expect(304);
    expect(again.text).toBe('');
    await request(t.app).get('/schema/nothing').expect(404);
    const index = await request(t.app).get('/schema').expect(200);
    expect(index.body.links.map((l: { rel: string }) => l.rel)).toEqual(
      expect.arrayContaining(['me', 'categories', 'tags']),
    );
  });

  it('when the schema says a rule, then the request validator enforces the same rule', async () => {
    const schema = (await request(t.app).get('/schema/tags')).body;
    const user = await createTestUser(t.deps);
    const answer = await request(t.app)
      .post('/tags')
      .set('Authorization', user.auth)
      .send({ name: 'x'.repeat(schema.properties.name.maxLength + 1), type: 'expense' })
      .expect(400);
    expect(answer.body.fields).toEqual([{ field: 'name', error: 'must NOT have more than 100 characters' }]);
  });

  it('when /openapi.json is fetched, then an OpenAPI 3.1 document lists every link as an operation', async () => {
    const answer = await request(t.app).get('/openapi.json').expect(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(Object.keys(answer.body.paths)).toEqual(
      expect.arrayContaining(['/categories', '/categories/{id}', '/tags/merge', '/me']),
    );
    expect(
      answer.body.paths['/categories'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['name', 'type']);
    expect(answer.body.paths['/categories/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(answer.body.components.schemas.categories.properties.counts).toBeDefined();
  });

  it('when / is fetched, then the index links every resource, its schema and the docs', async () => {
    const answer = await request(t.app).get('/').expect(200);
    expect(answer.body.links).toEqual(
      expect.arrayContaining([
        {
          rel: 'categories',
          href: 'http://127.0.0.1:3000/categories',
          schema: 'http://127.0.0.1:3000/schema/categories',
        },
        { rel: 'me', href: 'http://127.0.0.1:3000/me', schema: 'http://127.0.0.1:3000/schema/me' },
        { rel: 'docs', href: 'http://127.0.0.1:3000/docs' },
      ]),
    );
  });

  it('when /docs is fetched, then a human page names each resource', async () => {
    const answer = await request(t.app).get('/docs').expect(200);
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.text).toContain('/schema/categories');
    expect(answer.text).toContain('POST /tags/merge');
  });
});
