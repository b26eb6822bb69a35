import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import type { TestUser } from '../../support/api-test-app';
import {
  download,
  ImagesApp,
  makeImage,
  newImageUser,
  PDF_BYTES,
  startImagesApp,
  TEST_MAX_BYTES,
  upload,
} from './images-harness';

let api: ImagesApp;
let user: TestUser;
beforeAll(async () => {
  api = await startImagesApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await newImageUser(api);
});

const fileUrl = (path: string, name: string) => `${new URL(path).pathname}${name}`;

/** Every file stored under the user's folder. */
async function storedFiles(userId: string): Promise<string[]> {
  const root = join(api.storageDir, 'images', userId);
  const folders = await readdir(root).catch(() => [] as string[]);
  const files = await Promise.all(
    folders.map(async (f) => (await readdir(join(root, f))).map((n) => `${f}/${n}`)),
  );
  return files.flat();
}

describe('POST /images with a raw body', () => {
  it('when a JPEG is uploaded, then 201 with Location and the image, and both JPEGs are served', async () => {
    const bytes = await makeImage('jpeg', 1600, 1200);
    const answer = await upload(api, user, bytes, 'image/jpeg', '?filename=receipt%201.jpg').expect(201);
    expect(answer.headers.location).toBe(`${api.deps.config.BASE_URL}/images/${answer.body.id}`);
    expect(answer.headers['content-type']).toContain('application/vnd.service+json');
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      path: `${api.deps.config.BASE_URL}/images/${answer.body.id}/`,
      filename: 'receipt 1.jpg',
      type: 'image',
      status: 'uploaded',
      size: bytes.length,
      created: expect.stringMatching(/Z$/),
      modified: expect.any(String),
    });
    const thumb = await download(api, user, fileUrl(answer.body.path, 'thumb.jpg')).expect(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const thumbInfo = await sharp(thumb.body as Buffer).metadata();
    expect([thumbInfo.format, thumbInfo.width, thumbInfo.height]).toEqual(['jpeg', 640, 480]);
    const full = await download(api, user, fileUrl(answer.body.path, 'full.jpg')).expect(200);
    const fullInfo = await sharp(full.body as Buffer).metadata();
    expect([fullInfo.format, fullInfo.width, fullInfo.height]).toEqual(['jpeg', 1600, 1200]);
  });

  it('when a tall PNG with transparency is uploaded, then the thumb fits 640 px and both files are JPEG', async () => {
    const answer = await upload(
      api,
      user,
      await makeImage('png', 300, 900, { alpha: true }),
      'image/png',
    ).expect(201);
    expect(answer.body).toMatchObject({ type: 'image', status: 'uploaded' });
    expect(answer.body.filename).toBeUndefined();
    const thumb = await download(api, user, fileUrl(answer.body.path, 'thumb.jpg')).expect(200);
    const info = await sharp(thumb.body as Buffer).metadata();
    expect([info.format, info.width, info.height, info.hasAlpha]).toEqual(['jpeg', 213, 640, false]);
  });

  it('when a small WebP is uploaded, then its thumb is not enlarged', async () => {
    const answer = await upload(api, user, await makeImage('webp', 120, 80), 'image/webp').expect(201);
    const thumb = await download(api, user, fileUrl(answer.body.path, 'thumb.jpg')).expect(200);
    const info = await sharp(thumb.body as Buffer).metadata();
    expect([info.width, info.height]).toEqual([120, 80]);
  });

  it('when a JPEG carries EXIF orientation 6, then full.jpg is turned upright and carries no metadata', async () => {
    const bytes = await makeImage('jpeg', 400, 200, { orientation: 6 });
    expect((await sharp(bytes).metadata()).orientation).toBe(6);
    const answer = await upload(api, user, bytes, 'image/jpeg').expect(201);
    const full = await download(api, user, fileUrl(answer.body.path, 'full.jpg')).expect(200);
    const info = await sharp(full.body as Buffer).metadata();
    expect([info.width, info.height]).toEqual([200, 400]);
    expect(info.orientation).toBeUndefined();
    expect(info.exif).toBeUndefined();
  });

  it('when a PDF is uploaded, then it is stored as is at document.pdf and has no thumb', async () => {
    const answer = await upload(api, user, PDF_BYTES, 'application/pdf', '?filename=invoice.pdf').expect(201);
    expect(answer.body).toMatchObject({
      type: 'pdf',
      status: 'uploaded',
      filename: 'invoice.pdf',
      size: PDF_BYTES.length,
    });
    const file = await download(api, user, fileUrl(answer.body.path, 'document.pdf')).expect(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe('attachment');
    expect(Buffer.compare(file.body as Buffer, PDF_BYTES)).toBe(0);
    const thumb = await request(api.app)
      .get(fileUrl(answer.body.path, 'thumb.jpg'))
      .set('Authorization', user.auth);
    expect(thumb.status).toBe(404);
    expect(thumb.body.description).toContain('document.pdf');
  });
});

describe('POST /images with multipart/form-data', () => {
  it('when one file part is sent, then its file name and type are used', async () => {
    const answer = await request(api.app)
      .post('/images')
      .set('Authorization', user.auth)
      .attach('file', await makeImage('png', 50, 50), {
        filename: 'C:\\photos\\scan.png',
        contentType: 'image/png',
      })
      .expect(201);
    expect(answer.body).toMatchObject({ type: 'image', filename: 'scan.png' });
  });

  it('when the filename query parameter is given too, then it wins', async () => {
    const answer = await request(api.app)
      .post('/images?filename=kept.pdf')
      .set('Authorization', user.auth)
      .attach('file', PDF_BYTES, { filename: 'ignored.pdf', contentType: 'application/octet-stream' })
      .expect(201);
    expect(answer.body).toMatchObject({ type: 'pdf', filename: 'kept.pdf' });
  });

  it('when no part is named file, then 400 naming file', async () => {
    const answer = await request(api.app)
      .post('/images')
      .set('Authorization', user.auth)
      .attach('picture', PDF_BYTES, 'a.pdf')
      .expect(400);
    expect(answer.body.fields).toEqual([{ field: 'file', error: expect.stringContaining('required') }]);
  });

  it('when the part declares another type than its bytes, then 400 naming file', async () => {
    const answer = await request(api.app)
      .post('/images')
      .set('Authorization', user.auth)
      .attach('file', PDF_BYTES, { filename: 'a.jpg', contentType: 'image/jpeg' })
      .expect(400);
    expect(answer.body.fields).toEqual([
      { field: 'file', error: "must match the file's contents, which are application/pdf" },
    ]);
  });

  it('when the file part is over the limit, then 413 and nothing is stored', async () => {
    const answer = await request(api.app)
      .post('/images')
      .set('Authorization', user.auth)
      .attach('file', Buffer.concat([PDF_BYTES, Buffer.alloc(TEST_MAX_BYTES)]), 'big.pdf')
      .expect(413);
    expect(answer.body.error_id).toBe('error.payload.too_large');
    expect(await storedFiles(user.userId)).toEqual([]);
  });
});

describe('POST /images refusals', () => {
  it('when the Content-Type is not an accepted type, then 415 listing the accepted ones', async () => {
    const answer = await upload(api, user, Buffer.from('hello'), 'text/plain').expect(415);
    expect(answer.body.error_id).toBe('error.unsupported_media_type');
    expect(answer.body.description).toContain('image/jpeg');
  });

  it('when PNG bytes are sent as image/jpeg, then 400 naming Content-Type and the rule', async () => {
    const answer = await upload(api, user, await makeImage('png', 10, 10), 'image/jpeg').expect(400);
    expect(answer.body).toMatchObject({
      error_id: 'error.input',
      fields: [{ field: 'Content-Type', error: "must match the file's contents, which are image/png" }],
    });
  });

  it('when the bytes are no known format, then 400 naming the body', async () => {
    const answer = await upload(api, user, Buffer.from('GIF89a-not-supported'), 'image/png').expect(400);
    expect(answer.body.fields).toEqual([
      { field: '(body)', error: 'must be a JPEG, PNG or WebP image, or a PDF' },
    ]);
  });

  it('when a HEIC file is sent, then 400 saying HEIC is not supported', async () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(40)]);
    const answer = await upload(api, user, heic, 'image/jpeg').expect(400);
    expect(answer.body.fields[0].error).toContain('HEIC');
  });

  it('when a JPEG is truncated, then 400 (unreadable) and nothing is stored', async () => {
    const bytes = await makeImage('jpeg', 300, 300);
    const answer = await upload(api, user, bytes.subarray(0, 200), 'image/jpeg').expect(400);
    expect(answer.body.fields).toEqual([
      { field: '(body)', error: 'must be a readable JPEG, PNG or WebP image' },
    ]);
    expect(await storedFiles(user.userId)).toEqual([]);
  });

  it('when the body is over IMAGE_MAX_BYTES, then 413 with a JSON error and no image', async () => {
    const big = Buffer.concat([PDF_BYTES, Buffer.alloc(TEST_MAX_BYTES)]);
    const answer = await upload(api, user, big, 'application/pdf').expect(413);
    expect(answer.body.error_id).toBe('error.payload.too_large');
    expect(answer.body.description).toContain(String(TEST_MAX_BYTES));
    const list = await request(api.app).get('/images').set('Authorization', user.auth).expect(200);
    expect(list.body).toEqual([]);
  });

  it('when the body is empty, then 400', async () => {
    const answer = await upload(api, user, Buffer.alloc(0), 'image/jpeg').expect(400);
    expect(answer.body.fields[0].field).toBe('(body)');
  });

  it('when filename has a slash or is too long, then 400 naming filename', async () => {
    const bytes = await makeImage('jpeg', 10, 10);
    const slash = await upload(api, user, bytes, 'image/jpeg', '?filename=a%2Fb.jpg').expect(400);
    expect(slash.body.fields[0].field).toBe('filename');
    await upload(api, user, bytes, 'image/jpeg', `?filename=${'x'.repeat(256)}`).expect(400);
    await upload(api, user, bytes, 'image/jpeg', '?filename=a&filename=b').expect(400);
  });

  it('when the token has images:r only, then 403 and nothing is read or stored', async () => {
    const reader = await newImageUser(api, 'images:r');
    const answer = await upload(api, reader, PDF_BYTES, 'application/pdf').expect(403);
    expect(answer.body.error_id).toBe('error.auth.scope');
  });
});

/** CRC-32 of PNG chunks (node 20 has no zlib.crc32). */
function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

describe('POST /images against oversized content', () => {
  it('when a small PNG declares a 100-megapixel canvas, then 400 before decoding it', async () => {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(10_000, 0);
    header.writeUInt32BE(10_000, 4);
    header.set([8, 2, 0, 0, 0], 8);
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      // A few rows of pixel data: the header reads as valid; decoding it all would need 300 MB.
      pngChunk('IDAT', deflateSync(Buffer.alloc(30_001))),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
    const answer = await upload(api, user, bomb, 'image/png').expect(400);
    expect(answer.body.fields).toEqual([{ field: '(body)', error: 'must be at most 50 megapixels' }]);
  });

  it('when a chunked body without Content-Length passes the limit, then 413 while it is being sent', async () => {
    const server = api.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/images',
            headers: { Authorization: user.auth, 'Content-Type': 'application/pdf', Connection: 'close' },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write(PDF_BYTES);
        const chunk = Buffer.alloc(16 * 1024);
        for (let sent = 0; sent <= TEST_MAX_BYTES; sent += chunk.length) req.write(chunk);
        req.end();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error_id).toBe('error.payload.too_large');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('POST /images with Idempotency-Key', () => {
  it('when the same upload is retried with the key, then the first image comes back and one is stored', async () => {
    const bytes = await makeImage('jpeg', 40, 40);
    const send = (body: Buffer) =>
      request(api.app)
        .post('/images?filename=a.jpg')
        .set('Authorization', user.auth)
        .set('Content-Type', 'image/jpeg')
        .set('Idempotency-Key', 'upload-1')
        .send(body);
    const first = await send(bytes).expect(201);
    const again = await send(bytes).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers.location).toBe(first.headers.location);
    const list = await request(api.app).get('/images').set('Authorization', user.auth).expect(200);
    expect(list.body).toHaveLength(1);
    const other = await send(await makeImage('jpeg', 41, 41));
    expect(other.status).toBe(422);
  });
});
