import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import type { TestUser } from '../../support/api-test-app';
import {
  download,
  ImagesApp,
  newImageUser,
  PDF_BYTES,
  startImagesApp,
  upload,
  uploadImage,
} from './images-harness';

let api: ImagesApp;
let ada: TestUser;
let bob: TestUser;
beforeAll(async () => {
  api = await startImagesApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  ada = await newImageUser(api);
  bob = await newImageUser(api);
});

const as = (user: TestUser) => ({
  get: (path: string) => request(api.app).get(path).set('Authorization', user.auth),
  patch: (path: string, body: object) =>
    request(api.app).patch(path).set('Authorization', user.auth).send(body),
  put: (path: string, body: object) => request(api.app).put(path).set('Authorization', user.auth).send(body),
  delete: (path: string) => request(api.app).delete(path).set('Authorization', user.auth),
});

const filesOf = (userId: string) =>
  readdir(join(api.storageDir, 'images', userId), { recursive: true }).catch(() => [] as string[]);

describe('GET /images', () => {
  it('when images exist, then the list pages them newest change first with the list headers', async () => {
    const first = await uploadImage(api, ada);
    const second = await uploadImage(api, ada);
    const list = await as(ada).get('/images').expect(200);
    expect(list.body.map((image: { id: string }) => image.id)).toEqual([second, first]);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.headers['service-modified']).toBeDefined();
    expect(list.headers.link).toContain('rel="first"');
    await as(ada).get('/images').set('If-None-Match', list.headers.etag).expect(304);
  });

  it('when synced with since and include_deleted, then only changes come, deleted ones flagged', async () => {
    const kept = await uploadImage(api, ada);
    const gone = await uploadImage(api, ada);
    const base = await as(ada).get('/images').expect(200);
    await as(ada).delete(`/images/${gone}`).expect(204);
    const since = encodeURIComponent(base.headers['service-modified']);
    const changes = await as(ada).get(`/images?since=${since}&include_deleted=true`).expect(200);
    expect(changes.body).toEqual([expect.objectContaining({ id: gone, deleted: true, status: 'deleting' })]);
    const live = await as(ada).get('/images').expect(200);
    expect(live.body.map((image: { id: string }) => image.id)).toEqual([kept]);
  });

  it('when filtered by type, then only that type comes; a bad type is 400', async () => {
    await uploadImage(api, ada);
    const pdf = await upload(api, ada, PDF_BYTES, 'application/pdf').expect(201);
    const list = await as(ada).get('/images?type=pdf').expect(200);
    expect(list.body.map((image: { id: string }) => image.id)).toEqual([pdf.body.id]);
    const bad = await as(ada).get('/images?type=gif').expect(400);
    expect(bad.body.fields[0].field).toBe('type');
  });

  it('when the token lacks images scopes, then 403', async () => {
    const other = await newImageUser(api, 'entries:rw');
    await as(other).get('/images').expect(403);
  });
});

describe('GET, PATCH, PUT /images/{id}', () => {
  it('when fetched, then the object; when patched, then filename and extra change, the rest is read-only', async () => {
    const id = await uploadImage(api, ada, undefined, '?filename=a.jpg');
    const got = await as(ada).get(`/images/${id}`).expect(200);
    expect(got.body).toMatchObject({ id, filename: 'a.jpg', type: 'image', status: 'uploaded' });
    const patched = await as(ada)
      .patch(`/images/${id}`, {
        modified: got.body.modified,
        filename: 'b.jpg',
        extra: { page: 1 },
        type: 'pdf',
      })
      .expect(200);
    expect(patched.body).toMatchObject({ filename: 'b.jpg', extra: { page: 1 }, type: 'image' });
    const put = await as(ada).put(`/images/${id}`, { modified: patched.body.modified }).expect(200);
    expect(put.body.filename).toBeUndefined();
    expect(put.body.extra).toBeUndefined();
    const bad = await as(ada)
      .patch(`/images/${id}`, { modified: put.body.modified, filename: 'a/b' })
      .expect(400);
    expect(bad.body.fields[0].field).toBe('filename');
  });
});

describe('DELETE /images/{id}', () => {
  it('when deleted, then 204, the files are removed and the image and its files are 404', async () => {
    const id = await uploadImage(api, ada);
    const image = (await as(ada).get(`/images/${id}`).expect(200)).body;
    expect((await filesOf(ada.userId)).filter((name) => name.endsWith('.jpg'))).toHaveLength(2);
    await as(ada).delete(`/images/${id}`).expect(204);
    expect((await filesOf(ada.userId)).filter((name) => name.endsWith('.jpg'))).toHaveLength(0);
    await as(ada).get(`/images/${id}`).expect(404);
    await as(ada)
      .get(`${new URL(image.path).pathname}thumb.jpg`)
      .expect(404);
    await as(ada).delete(`/images/${id}`).expect(404);
  });
});

describe('GET /images/{id}/<file>', () => {
  it('when downloaded again with its ETag, then 304; the ETag differs per file', async () => {
    const id = await uploadImage(api, ada);
    const thumb = await download(api, ada, `/images/${id}/thumb.jpg`).expect(200);
    expect(thumb.headers.etag).toMatch(/^"[0-9a-f]+-thumb\.jpg"$/);
    expect(thumb.headers['cache-control']).toContain('private');
    expect(Number(thumb.headers['content-length'])).toBe((thumb.body as Buffer).length);
    await as(ada).get(`/images/${id}/thumb.jpg`).set('If-None-Match', thumb.headers.etag).expect(304);
    const full = await download(api, ada, `/images/${id}/full.jpg`).expect(200);
    expect(full.headers.etag).not.toBe(thumb.headers.etag);
  });

  it('when the file name is not one of the image, then 404 naming its files', async () => {
    const id = await uploadImage(api, ada);
    const answer = await as(ada).get(`/images/${id}/document.pdf`).expect(404);
    expect(answer.body.description).toContain('thumb.jpg, full.jpg');
    await as(ada).get(`/images/${id}/..%2F..%2Fetc`).expect(404);
  });

  it('when asked without a token, then 401', async () => {
    const id = await uploadImage(api, ada);
    await request(api.app).get(`/images/${id}/thumb.jpg`).expect(401);
  });

  it('when the Accept header asks for an image, then the file is served (no JSON negotiation)', async () => {
    const id = await uploadImage(api, ada);
    await as(ada).get(`/images/${id}/thumb.jpg`).set('Accept', 'image/jpeg').expect(200);
  });
});

describe('Isolation between users', () => {
  it("when another user names Ada's image on any route, then 404 and nothing changes", async () => {
    const id = await uploadImage(api, ada, undefined, '?filename=mine.jpg');
    const image = (await as(ada).get(`/images/${id}`).expect(200)).body;
    expect((await as(bob).get('/images').expect(200)).body).toEqual([]);
    expect((await as(bob).get(`/images?ids=${id}&include_deleted=true`).expect(200)).body).toEqual([]);
    await as(bob).get(`/images/${id}`).expect(404);
    await as(bob).patch(`/images/${id}`, { modified: image.modified, filename: 'x.jpg' }).expect(404);
    await as(bob).put(`/images/${id}`, { modified: image.modified }).expect(404);
    await as(bob).delete(`/images/${id}`).expect(404);
    for (const file of ['thumb.jpg', 'full.jpg']) await as(bob).get(`/images/${id}/${file}`).expect(404);
    const after = await as(ada).get(`/images/${id}`).expect(200);
    expect(after.body).toEqual(image);
    await download(api, ada, `/images/${id}/thumb.jpg`).expect(200);
  });

  it("when Bob uploads, then his image is stored in his own folder and Ada's list is unchanged", async () => {
    const mine = await uploadImage(api, ada);
    const his = await uploadImage(api, bob);
    expect((await as(ada).get('/images').expect(200)).body.map((i: { id: string }) => i.id)).toEqual([mine]);
    expect((await as(bob).get('/images').expect(200)).body.map((i: { id: string }) => i.id)).toEqual([his]);
    expect((await filesOf(bob.userId)).filter((name) => name.endsWith('.jpg'))).toHaveLength(2);
  });
});

describe('Schema', () => {
  it('when /schema/images is read, then it describes the upload and file links', async () => {
    const schema = await request(api.app).get('/schema/images').expect(200);
    const hrefs = schema.body.links.map((link: { href: string }) => link.href);
    expect(hrefs).toEqual(expect.arrayContaining(['/images', '/images/{id}', '/images/{id}/thumb.jpg']));
  });

  it('when a method no link has is used, then 405 with Allow', async () => {
    const id = await uploadImage(api, ada);
    const answer = await request(api.app)
      .post(`/images/${id}/thumb.jpg`)
      .set('Authorization', ada.auth)
      .expect(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });
});
