import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';
import {
  fillPath,
  isListRoute,
  isWriteRoute,
  Operation,
  publishedOperations,
  stringProperties,
} from '../../support/openapi-operations';

const ALL_SCOPES = 'user:rw categories:rw tags:rw entries:rw accounts:rw budgets:rw images:rw locations:rw';

/** Input that used to reach Postgres (U+0000) or decodeURIComponent (bad escapes) and come back as a 500. */
describe('hostile input over every list and write route of /openapi.json', () => {
  let t: ApiTestApp;
  let user: TestUser;
  let operations: Operation[];
  beforeAll(async () => {
    t = await startApiTestApp();
    user = await createTestUser(t.deps, ALL_SCOPES);
    operations = await publishedOperations(t.app);
  });
  afterAll(() => t.close());

  const send = (method: Operation['method'], path: string) =>
    request(t.app)[method](path).set('Authorization', user.auth);

  const fieldsOf = (body: { fields?: Array<{ field: string }> }) => (body.fields ?? []).map((f) => f.field);

  it('when a query parameter holds U+0000 or a malformed escape, then 400 error.input names it', async () => {
    const lists = operations.filter(isListRoute);
    expect(lists.length).toBeGreaterThan(10);
    for (const list of lists) {
      for (const { name } of list.query) {
        for (const value of ['a%00b', '%E0%A4%A', '%zz', '%']) {
          const answer = await send('get', `${list.template}?${encodeURIComponent(name)}=${value}`);
          expect({ route: list.template, name, value, status: answer.status }).toEqual({
            route: list.template,
            name,
            value,
            status: 400,
          });
          expect(answer.body.error_id).toBe('error.input');
          expect(fieldsOf(answer.body)).toContain(name);
        }
      }
    }
  });

  it('when a query parameter name is a malformed escape (GET /accounts?%), then 400 naming it', async () => {
    for (const list of operations.filter(isListRoute)) {
      for (const query of ['%', '%zz=1', 'a%00=1', '%C0%AF=1']) {
        const answer = await send('get', `${list.template}?${query}`);
        expect({ route: list.template, query, status: answer.status }).toMatchObject({ status: 400 });
        expect(answer.body.fields[0].error).toMatch(/query parameter name/);
      }
    }
  });

  it('when a path id holds U+0000 or a malformed escape, then every method answers 400 naming the path', async () => {
    const withIds = operations.filter((operation) => operation.template.includes('{'));
    expect(withIds.length).toBeGreaterThan(10);
    for (const operation of withIds) {
      for (const id of ['1%00', '%00', '%E0%A4%A']) {
        const answer = await send(operation.method, fillPath(operation.template, id)).send({});
        expect({
          route: operation.template,
          method: operation.method,
          id,
          status: answer.status,
        }).toMatchObject({
          status: 400,
        });
        expect(fieldsOf(answer.body)).toEqual(['path']);
      }
    }
  });

  it('when a JSON string (a declared field, or inside extra) holds U+0000, then 400 names that field', async () => {
    const writes = operations.filter((operation) => isWriteRoute(operation) && operation.body);
    expect(writes.length).toBeGreaterThan(15);
    for (const write of writes) {
      const path = fillPath(write.template, '1');
      const names = [...stringProperties(write.body), 'any_name'];
      for (const name of names) {
        const answer = await send(write.method, path).send({ [name]: 'before\u0000after' });
        expect({ route: `${write.method} ${write.template}`, name, status: answer.status }).toMatchObject({
          status: 400,
        });
        expect(fieldsOf(answer.body)).toEqual([name]);
      }
      const nested = await send(write.method, path).send({ extra: { notes: ['ok', 'a\u0000'] } });
      expect(nested.status).toBe(400);
      expect(fieldsOf(nested.body)).toEqual(['extra.notes.1']);
      const inKey = await send(write.method, path).send({ extra: { 'k\u0000': 1 } });
      expect(fieldsOf(inKey.body)).toEqual(['extra.k\\u0000']);
    }
  });

  it('when a body nests deeper than the parser allows, with an Idempotency-Key, then 400 (no stack overflow)', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const path of ['/entries', '/accounts', '/budgets']) {
      const answer = await send('post', path)
        .set('Idempotency-Key', `deep-${path}`)
        .set('Content-Type', 'application/json')
        .send(deep);
      expect(answer.status).toBe(400);
      expect(answer.body.fields).toEqual([
        { field: '(body)', error: expect.stringMatching(/deeper than 32/) },
      ]);
    }
    // Depth within the bound is still read: a 32-level `extra` is accepted as JSON (then validated as usual).
    let extra: unknown = 1;
    for (let level = 1; level < 31; level += 1) extra = { e: extra };
    const within = await send('post', '/tags').send({ name: 'deep-ok', type: 'expense', extra });
    expect(within.status).toBeLessThan(500);
    expect(within.body.fields?.[0]?.field).not.toBe('(body)');
  });
});
