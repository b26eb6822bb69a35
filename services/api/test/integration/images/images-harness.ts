import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';

export const IMAGE_SCOPES = 'user:r images:rw entries:rw categories:rw accounts:rw';
/** Small enough that a test makes an oversize file in a few milliseconds. */
export const TEST_MAX_BYTES = 256 * 1024;

export interface ImagesApp extends ApiTestApp {
  storageDir: string;
}

/** The API with the filesystem driver in a temp dir of its own (removed on close). */
export async function startImagesApp(env: Record<string, string> = {}): Promise<ImagesApp> {
  const storageDir = await mkdtemp(join(tmpdir(), 'pfs-api-images-'));
  const api = await startApiTestApp({
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
    IMAGE_MAX_BYTES: String(TEST_MAX_BYTES),
    ...env,
  });
  return {
    ...api,
    storageDir,
    async close() {
      await api.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

export const newImageUser = (api: ApiTestApp, scope = IMAGE_SCOPES): Promise<TestUser> =>
  createTestUser(api.deps, scope);

/** A test picture: a colour gradient-free solid image is enough for sizes and orientation. */
export function makeImage(
  format: 'jpeg' | 'png' | 'webp',
  width: number,
  height: number,
  options: { orientation?: number; alpha?: boolean } = {},
): Promise<Buffer> {
  let image = sharp({
    create: {
      width,
      height,
      channels: options.alpha ? 4 : 3,
      background: options.alpha ? { r: 200, g: 30, b: 30, alpha: 0.5 } : { r: 200, g: 30, b: 30 },
    },
  });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toFormat(format).toBuffer();
}

/** A minimal one-page PDF (its bytes are stored as they are, so they need not render). */
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** POST /images with a raw body. */
export function upload(api: ApiTestApp, user: TestUser, bytes: Buffer, type: string, query = '') {
  return request(api.app)
    .post(`/images${query}`)
    .set('Authorization', user.auth)
    .set('Content-Type', type)
    .send(bytes);
}

/** Uploads and returns the image id (fails the test on anything but 201). */
export async function uploadImage(
  api: ApiTestApp,
  user: TestUser,
  bytes?: Buffer,
  query = '',
): Promise<string> {
  const answer = await upload(api, user, bytes ?? (await makeImage('jpeg', 64, 48)), 'image/jpeg', query);
  if (answer.status !== 201) throw new Error(`POST /images ${answer.status}: ${JSON.stringify(answer.body)}`);
  return String(answer.body.id);
}

/** GET of a file with its bytes buffered (supertest leaves binary bodies unparsed otherwise). */
export function download(api: ApiTestApp, user: TestUser, path: string) {
  return request(api.app)
    .get(path)
    .set('Authorization', user.auth)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}
