import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  issueToken,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

describe('writes: create, update, conflicts, delete (categories and tags)', () => {
  let t: ApiTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startApiTestApp();
    user = await createTestUser(t.deps);
  });
  afterAll(() => t.close());

  const get = (path: string, who = user) => request(t.app).get(path).set('Authorization', who.auth);
  const put = (path: string, body: unknown, who = user) =>
    request(t.app)
      .put(path)
      .set('Authorization', who.auth)
      .send(body as object);
  const patch = (path: string, body: unknown) =>
    request(t.app)
      .patch(path)
      .set('Authorization', user.auth)
      .send(body as object);

  it('when a category is created, then 201 with Location naming the new id and the object as the body', async () => {
    const answer = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .send({ name: 'Rent', type: 'expense' })
      .expect(201);
    expect(answer.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:3000\/categories\/\d+$/);
    const id = answer.headers.location.split('/').pop();
    const fetched = await get(`/categories/${id}`).expect(200);
    expect(answer.body).toEqual(fetched.body);
    expect(fetched.body).toMatchObject({ id, name: 'Rent', type: 'expense' });
    expect(fetched.body.modified).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(fetched.body).not.toHaveProperty('extra');
    expect(fetched.body).not.toHaveProperty('deleted');
  });

  it('when required fields are missing or invalid, then 400 names each field and rule', async () => {
    const answer = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .send({ type: 'outgoing', name: 'x'.repeat(101) })
      .expect(400);
    expect(answer.body.error_id).toBe('error.input');
    const fields = answer.body.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'type']));
    const missing = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .send({})
      .expect(400);
    expect(missing.body.fields).toEqual(
      expect.arrayContaining([
        { field: 'name', error: 'is required' },
        { field: 'type', error: 'is required' },
      ]),
    );
  });

  it('when a whole fetched object is sent back, then read-only fields are ignored and placeholders normalised', async () => {
    const category = await createCategory(t.app, user, { name: 'Fun', type: 'expense' });
    const id = await createTag(t.app, user, {
      name: 'cinema',
      type: 'expense',
      category: '',
      id: '999',
      deleted: false,
      counts: { entries: 5 },
      extra: { app: { nested: null, list: [] } },
    });
    const tag = (await get(`/tags/${id}`).expect(200)).body;
    expect(tag).not.toHaveProperty('category');
    expect(tag.id).toBe(id);
    expect(tag.extra).toEqual({ app: { nested: null, list: [] } });
    const updated = await put(`/tags/${id}`, { ...tag, category, counts: { entries: 1 } }).expect(200);
    expect(updated.body.category).toBe(category);
    expect(updated.body.counts).toEqual({ entries: 0, unsorted_entries: 0, budgets: 0 });
  });

  it('when extra exceeds its bound, then 400 names extra', async () => {
    const answer = await request(t.app)
      .post('/categories')
      .set('Authorization', user.auth)
      .send({ name: 'Big', type: 'expense', extra: { blob: 'x'.repeat(20_000) } })
      .expect(400);
    expect(answer.body.fields).toEqual([{ field: 'extra', error: expect.stringContaining('16384') }]);
  });

  it('when a write lacks modified or carries one never issued, then 400', async () => {
    const id = await createCategory(t.app, user, { name: 'Gym', type: 'expense' });
    const missing = await put(`/categories/${id}`, { name: 'Sport', type: 'expense' }).expect(400);
    expect(missing.body.fields).toEqual([{ field: 'modified', error: 'is required on every write' }]);
    const garbage = await put(`/categories/${id}`, {
      name: 'Sport',
      type: 'expense',
      modified: 'yesterday',
    }).expect(400);
    expect(garbage.body.error_id).toBe('error.modified.invalid');
    const madeUp = await put(`/categories/${id}`, {
      name: 'Sport',
      type: 'expense',
      modified: '2001-01-01 00:00:00.000',
    }).expect(400);
    expect(madeUp.body.error_id).toBe('error.modified.invalid');
    const future = await put(`/categories/${id}`, {
      name: 'Sport',
      type: 'expense',
      modified: '2999-01-01 00:00:00.000',
    }).expect(400);
    expect(future.body.error_id).toBe('error.modified.invalid');
  });

  it('when PUT omits a field, then that field is unset', async () => {
    const id = await createCategory(t.app, user, { name: 'Kids', type: 'expense', extra: { color: 'red' } });
    const current = (await get(`/categories/${id}`)).body;
    const answer = await put(`/categories/${id}`, {
      name: 'Kids',
      type: 'expense',
      modified: current.modified,
    }).expect(200);
    expect(answer.body).not.toHaveProperty('extra');
    expect(answer.body.modified > current.modified).toBe(true);
  });

  it('when two clients change different fields from the same revision, then both changes are kept', async () => {
    const id = await createCategory(t.app, user, { name: 'Books', type: 'expense' });
    const seen = (await get(`/categories/${id}`)).body;
    await put(`/categories/${id}`, { ...seen, name: 'Reading' }).expect(200);
    const merged = await put(`/categories/${id}`, { ...seen, extra: { icon: 'book' } }).expect(200);
    expect(merged.body).toMatchObject({ name: 'Reading', extra: { icon: 'book' }, type: 'expense' });
  });

  it('when two clients change the same field differently, then 409 with the current object', async () => {
    const id = await createCategory(t.app, user, { name: 'Pets', type: 'expense' });
    const seen = (await get(`/categories/${id}`)).body;
    await put(`/categories/${id}`, { ...seen, name: 'Dog' }).expect(200);
    const conflict = await put(`/categories/${id}`, { ...seen, name: 'Cat' }).expect(409);
    expect(conflict.body).toMatchObject({ error_id: 'error.object.conflict', current: { id, name: 'Dog' } });
    const same = await put(`/categories/${id}`, { ...seen, name: 'Dog' }).expect(200);
    expect(same.body.name).toBe('Dog');
  });

  it('when PATCH sends a JSON merge patch, then only those fields change (null removes)', async () => {
    const id = await createCategory(t.app, user, { name: 'Car', type: 'expense', extra: { a: 1, b: 2 } });
    const seen = (await get(`/categories/${id}`)).body;
    const answer = await patch(`/categories/${id}`, {
      modified: seen.modified,
      extra: { a: null, c: 3 },
    }).expect(200);
    expect(answer.body).toMatchObject({ name: 'Car', type: 'expense', extra: { b: 2, c: 3 } });
    expect(answer.body.extra).not.toHaveProperty('a');
    const stale = await patch(`/categories/${id}`, { modified: seen.modified, name: 'Auto' }).expect(200);
    expect(stale.body).toMatchObject({ name: 'Auto', extra: { b: 2, c: 3 } });
    const typed = await request(t.app)
      .patch(`/categories/${id}`)
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ modified: stale.body.modified, name: 'Vehicle' }))
      .expect(200);
    expect(typed.body.name).toBe('Vehicle');
    const bad = await patch(`/categories/${id}`, { modified: typed.body.modified, type: 'gift' }).expect(400);
    expect(bad.body.fields[0].field).toBe('type');
  });

  it('when an object is deleted, then 204, it is gone, and lists show it only with include_deleted', async () => {
    const id = await createCategory(t.app, user, { name: 'Temp', type: 'income' });
    await request(t.app).delete(`/categories/${id}`).set('Authorization', user.auth).expect(204);
    await get(`/categories/${id}`).expect(404);
    await request(t.app).delete(`/categories/${id}`).set('Authorization', user.auth).expect(404);
    const live = await get(`/categories?ids=${id}`).expect(200);
    expect(live.body).toEqual([]);
    const all = await get(`/categories?ids=${id}&include_deleted=true`).expect(200);
    expect(all.body).toEqual([expect.objectContaining({ id, deleted: true })]);
  });

  it("when another user's id is used, then 404 for read, write and delete", async () => {
    const other = await createTestUser(t.deps);
    const id = await createCategory(t.app, other, { name: 'Secret', type: 'expense' });
    const seen = (await get(`/categories/${id}`, other)).body;
    await get(`/categories/${id}`).expect(404);
    await put(`/categories/${id}`, seen).expect(404);
    await request(t.app).delete(`/categories/${id}`).set('Authorization', user.auth).expect(404);
    const tag = await request(t.app)
      .post('/tags')
      .set('Authorization', user.auth)
      .send({ name: 'x', type: 'expense', category: id })
      .expect(400);
    expect(tag.body.fields).toEqual([{ field: 'category', error: expect.any(String) }]);
    expect((await get(`/categories/${id}`, other)).body.name).toBe('Secret');
  });

  it('when two applications of one user store extra, then each sees and changes only its own', async () => {
    const appB = await issueToken(t.deps, user.userId, 'categories:rw', { client_id: 'app-b' });
    const id = await createCategory(t.app, user, { name: 'Shared', type: 'expense', extra: { a: 1 } });
    const seenByB = (await get(`/categories/${id}`, { ...user, ...appB })).body;
    expect(seenByB).not.toHaveProperty('extra');
    const written = await put(
      `/categories/${id}`,
      { ...seenByB, extra: { b: 2 } },
      { ...user, ...appB },
    ).expect(200);
    expect(written.body.extra).toEqual({ b: 2 });
    const seenByA = (await get(`/categories/${id}`)).body;
    expect(seenByA.extra).toEqual({ a: 1 });
    await put(`/categories/${id}`, { ...seenByA, name: 'Renamed', extra: undefined }).expect(200);
    expect((await get(`/categories/${id}`)).body).not.toHaveProperty('extra');
    expect((await get(`/categories/${id}`, { ...user, ...appB })).body).toMatchObject({
      name: 'Renamed',
      extra: { b: 2 },
    });
  });
});
