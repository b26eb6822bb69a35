import request from 'supertest';
import { createCategory, TestUser } from '../../support/api-test-app';
import { postAccount, postEntry } from '../ledger/ledger-http';
import { ImagesApp, newImageUser, PDF_BYTES, startImagesApp, upload, uploadImage } from './images-harness';

let api: ImagesApp;
let ada: TestUser;
let account: string;
let category: string;
beforeAll(async () => {
  api = await startImagesApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  ada = await newImageUser(api);
  account = await postAccount(api.app, ada, { name: 'Cash', currency: { code: 'EUR' } });
  category = await createCategory(api.app, ada, { name: 'Food', type: 'expense' });
});

const entry = (extra: Record<string, unknown> = {}) => ({
  amount: -12.5,
  currency: { code: 'EUR' },
  date: '2025-05-09',
  account,
  category,
  ...extra,
});
const as = (user: TestUser) => ({
  get: (path: string) => request(api.app).get(path).set('Authorization', user.auth),
  post: (path: string, body: unknown) =>
    request(api.app)
      .post(path)
      .set('Authorization', user.auth)
      .send(body as object),
  put: (path: string, body: object) => request(api.app).put(path).set('Authorization', user.auth).send(body),
  patch: (path: string, body: object) =>
    request(api.app).patch(path).set('Authorization', user.auth).send(body),
  delete: (path: string) => request(api.app).delete(path).set('Authorization', user.auth),
});
const base = () => api.deps.config.BASE_URL;

describe('Entry images', () => {
  it('when an entry holds images, then each is presented with id, path, filename, type and status', async () => {
    const photo = await uploadImage(api, ada, undefined, '?filename=receipt.jpg');
    const pdf = (await upload(api, ada, PDF_BYTES, 'application/pdf').expect(201)).body.id;
    const id = await postEntry(api.app, ada, entry({ images: [{ id: photo }, { id: pdf }, { id: photo }] }));
    const got = await as(ada).get(`/entries/${id}`).expect(200);
    expect(got.body.images).toEqual([
      {
        id: photo,
        path: `${base()}/images/${photo}/`,
        filename: 'receipt.jpg',
        type: 'image',
        status: 'uploaded',
      },
      { id: pdf, path: `${base()}/images/${pdf}/`, type: 'pdf', status: 'uploaded' },
    ]);
    const list = await as(ada).get('/entries').expect(200);
    expect(list.body[0].images).toEqual(got.body.images);
  });

  it('when an entry has no images, then the field is absent', async () => {
    const id = await postEntry(api.app, ada, entry());
    expect((await as(ada).get(`/entries/${id}`).expect(200)).body.images).toBeUndefined();
  });

  it('when images break a rule, then 400 naming the field and the rule', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => uploadImage(api, ada)));
    const five = await as(ada)
      .post('/entries', entry({ images: ids.map((id) => ({ id })) }))
      .expect(400);
    expect(five.body.fields[0].field).toBe('images');
    const notArray = await as(ada)
      .post('/entries', entry({ images: ids[0] }))
      .expect(400);
    expect(notArray.body.fields[0].field).toBe('images');
    const unknown = await as(ada)
      .post('/entries', entry({ images: [{ id: ids[0] }, { id: '999999999' }] }))
      .expect(400);
    expect(unknown.body.fields).toEqual([{ field: 'images.1', error: 'must be one of your images' }]);
    await as(ada).delete(`/images/${ids[1]}`).expect(204);
    const deleted = await as(ada)
      .post('/entries', entry({ images: [{ id: ids[1] }] }))
      .expect(400);
    expect(deleted.body.fields).toEqual([{ field: 'images.0', error: 'must be one of your images' }]);
    const four = await as(ada).post('/entries', entry({ images: [0, 2, 3, 4].map((i) => ({ id: ids[i] })) }));
    expect(four.status).toBe(201);
  });

  it("when another user's image is named, then 400 and the entry is not created", async () => {
    const bob = await newImageUser(api);
    const his = await uploadImage(api, bob);
    const answer = await as(ada)
      .post('/entries', entry({ images: [{ id: his }] }))
      .expect(400);
    expect(answer.body.fields).toEqual([{ field: 'images.0', error: 'must be one of your images' }]);
    expect((await as(ada).get('/entries').expect(200)).body).toEqual([]);
  });

  it("when Bob reads Ada's entry or its images, then 404", async () => {
    const bob = await newImageUser(api);
    const photo = await uploadImage(api, ada);
    const id = await postEntry(api.app, ada, entry({ images: [{ id: photo }] }));
    await as(bob).get(`/entries/${id}`).expect(404);
    await as(bob).get(`/images/${photo}/full.jpg`).expect(404);
  });

  it('when a PUT omits images, then they are removed; a fetched entry sent back keeps them', async () => {
    const photo = await uploadImage(api, ada);
    const id = await postEntry(api.app, ada, entry({ images: [{ id: photo }] }));
    const fetched = (await as(ada).get(`/entries/${id}`).expect(200)).body;
    const resent = await as(ada)
      .put(`/entries/${id}`, { ...fetched, desc: 'lunch' })
      .expect(200);
    expect(resent.body.images).toEqual(fetched.images);
    const { images: _dropped, ...without } = resent.body;
    const put = await as(ada).put(`/entries/${id}`, without).expect(200);
    expect(put.body.images).toBeUndefined();
    expect(put.body.desc).toBe('lunch');
  });

  it('when a PATCH names images, then only they change; a PATCH without them keeps them', async () => {
    const [one, two] = [await uploadImage(api, ada), await uploadImage(api, ada)];
    const id = await postEntry(api.app, ada, entry({ images: [{ id: one }] }));
    const first = (await as(ada).get(`/entries/${id}`).expect(200)).body;
    const desc = await as(ada).patch(`/entries/${id}`, { modified: first.modified, desc: 'x' }).expect(200);
    expect(desc.body.images.map((image: { id: string }) => image.id)).toEqual([one]);
    const swap = await as(ada)
      .patch(`/entries/${id}`, { modified: desc.body.modified, images: [{ id: two }, { id: one }] })
      .expect(200);
    expect(swap.body.images.map((image: { id: string }) => image.id)).toEqual([two, one]);
    expect(swap.body.desc).toBe('x');
    const cleared = await as(ada)
      .patch(`/entries/${id}`, { modified: swap.body.modified, images: null })
      .expect(200);
    expect(cleared.body.images).toBeUndefined();
  });

  it('when an image is deleted, then it leaves the entries holding it, which show up in the next sync', async () => {
    const [kept, gone] = [await uploadImage(api, ada), await uploadImage(api, ada)];
    const id = await postEntry(api.app, ada, entry({ images: [{ id: kept }, { id: gone }] }));
    const untouched = await postEntry(api.app, ada, entry());
    const before = await as(ada).get('/entries').expect(200);
    await as(ada).delete(`/images/${gone}`).expect(204);
    const since = encodeURIComponent(before.headers['service-modified']);
    const changes = await as(ada).get(`/entries?since=${since}`).expect(200);
    expect(changes.body.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(changes.body[0].images.map((image: { id: string }) => image.id)).toEqual([kept]);
    const stale = before.body.find((e: { id: string }) => e.id === id);
    expect(changes.body[0].modified).not.toBe(stale.modified);
    // The revision was recorded: a write based on the new modified merges as usual.
    await as(ada).patch(`/entries/${id}`, { modified: changes.body[0].modified, desc: 'ok' }).expect(200);
    expect((await as(ada).get(`/entries/${untouched}`).expect(200)).body.images).toBeUndefined();
  });

  it('when a client edits an entry from before an image was deleted, then the merge keeps the image removed', async () => {
    const [kept, gone] = [await uploadImage(api, ada), await uploadImage(api, ada)];
    const id = await postEntry(api.app, ada, entry({ images: [{ id: kept }, { id: gone }] }));
    const old = (await as(ada).get(`/entries/${id}`).expect(200)).body;
    await as(ada).delete(`/images/${gone}`).expect(204);
    const merged = await as(ada)
      .patch(`/entries/${id}`, { modified: old.modified, desc: 'later' })
      .expect(200);
    expect(merged.body.images.map((image: { id: string }) => image.id)).toEqual([kept]);
    expect(merged.body.desc).toBe('later');
  });

  it("when a batch names an image that is not the user's, then 400 naming the item and nothing is created", async () => {
    const photo = await uploadImage(api, ada);
    const answer = await as(ada)
      .post('/entries', [
        entry({ images: [{ id: photo }] }),
        entry({ images: [{ id: photo }, { id: '424242' }] }),
      ])
      .expect(400);
    expect(answer.body.fields).toEqual([{ field: '1.images.1', error: 'must be one of your images' }]);
    expect((await as(ada).get('/entries').expect(200)).body).toEqual([]);
  });

  it('when a transfer holds images, then its companion shows them too, and loses them with the image', async () => {
    const savings = await postAccount(api.app, ada, { name: 'Savings', currency: { code: 'EUR' } });
    const photo = await uploadImage(api, ada);
    const id = await postEntry(
      api.app,
      ada,
      entry({ images: [{ id: photo }], transaction: { account: savings } }),
    );
    const transfer = (await as(ada).get(`/entries/${id}`).expect(200)).body;
    const companion = (await as(ada).get(`/entries/${transfer.transaction.id}`).expect(200)).body;
    expect(companion.images.map((image: { id: string }) => image.id)).toEqual([photo]);
    await as(ada).delete(`/images/${photo}`).expect(204);
    expect((await as(ada).get(`/entries/${id}`).expect(200)).body.images).toBeUndefined();
    expect((await as(ada).get(`/entries/${companion.id}`).expect(200)).body.images).toBeUndefined();
  });

  it('when a page of entries holds images, then they are looked up in one query', async () => {
    const photos = await Promise.all([1, 2, 3].map(() => uploadImage(api, ada)));
    for (const photo of photos) await postEntry(api.app, ada, entry({ images: [{ id: photo }] }));
    const queries: string[] = [];
    const original = api.deps.dataSource.query.bind(api.deps.dataSource);
    const spy = jest
      .spyOn(api.deps.dataSource, 'query')
      .mockImplementation((sql: string, params?: unknown[]) => {
        queries.push(sql);
        return original(sql, params);
      });
    try {
      const list = await as(ada).get('/entries').expect(200);
      expect(list.body.every((e: { images?: unknown[] }) => e.images?.length === 1)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(queries.filter((sql) => /FROM images/.test(sql))).toHaveLength(1);
  });
});
