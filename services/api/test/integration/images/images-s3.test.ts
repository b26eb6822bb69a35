import { S3Storage } from '@pfs/storage';
import sharp from 'sharp';
import request from 'supertest';
import { startS3rver, RunningS3rver } from '../../../../../libs/storage/test/start-s3rver';
import type { TestUser } from '../../support/api-test-app';
import {
  download,
  ImagesApp,
  makeImage,
  newImageUser,
  PDF_BYTES,
  startImagesApp,
  upload,
} from './images-harness';

describe('images stored on S3', () => {
  let s3: RunningS3rver;
  let api: ImagesApp;
  let user: TestUser;
  beforeAll(async () => {
    s3 = await startS3rver('pfs-images-s3-test');
    api = await startImagesApp({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    });
    user = await newImageUser(api);
  });
  afterAll(async () => {
    await api.close();
    await s3.stop();
  });

  it('when an image and a PDF are uploaded, then their files are objects in the bucket, served and removed on delete', async () => {
    expect(api.deps.storage.driver).toBe('s3');
    const image = (await upload(api, user, await makeImage('jpeg', 1280, 960), 'image/jpeg').expect(201))
      .body;
    const pdf = (await upload(api, user, PDF_BYTES, 'application/pdf').expect(201)).body;
    const thumb = await download(api, user, `/images/${image.id}/thumb.jpg`).expect(200);
    const info = await sharp(thumb.body as Buffer).metadata();
    expect([info.width, info.height]).toEqual([640, 480]);
    const document = await download(api, user, `/images/${pdf.id}/document.pdf`).expect(200);
    expect(Buffer.compare(document.body as Buffer, PDF_BYTES)).toBe(0);

    const [record] = await api.deps.dataSource.query(`SELECT storage_prefix FROM images WHERE id = $1`, [
      image.id,
    ]);
    const storage = api.deps.storage as S3Storage;
    expect(await storage.size(`${record.storage_prefix}/full.jpg`)).toBeGreaterThan(0);
    await request(api.app).delete(`/images/${image.id}`).set('Authorization', user.auth).expect(204);
    expect(await storage.size(`${record.storage_prefix}/full.jpg`)).toBeUndefined();
    expect(await storage.size(`${record.storage_prefix}/thumb.jpg`)).toBeUndefined();
  });
});
