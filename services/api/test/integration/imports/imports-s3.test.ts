import type { S3Storage } from '@pfs/storage';
import { startS3rver, RunningS3rver } from '../../../../../libs/storage/test/start-s3rver';
import { createTestUser } from '../../support/api-test-app';
import {
  accountOf,
  createAccount,
  entriesOf,
  importFile,
  ImportHarness,
  startImportHarness,
} from './import-harness';

describe('imports stored on S3', () => {
  let s3: RunningS3rver;
  let harness: ImportHarness;
  beforeAll(async () => {
    s3 = await startS3rver('pfs-imports-s3-test');
    harness = await startImportHarness({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    });
  });
  afterAll(async () => {
    await harness.close();
    await s3.stop();
  });

  it('when a statement is uploaded, then it streams into the bucket, the worker reads it from there, and it goes once imported', async () => {
    const api = harness.api;
    expect(api.deps.storage.driver).toBe('s3');
    const user = await createTestUser(api.deps, 'entries:rw accounts:rw');
    const account = await createAccount(api, user, { initial_balance: 1 });
    const rows = [
      'Date,Amount,Description',
      ...Array.from({ length: 600 }, (_, i) => `2026-06-01,-0.01,item ${i}`),
    ];
    const written: string[] = [];
    const storage = api.deps.storage as S3Storage;
    const write = storage.write.bind(storage);
    storage.write = async (key, body, options) => {
      written.push(key);
      return write(key, body, options);
    };
    const done = await importFile(api, user, rows.join('\n'), 'june.csv', { account });
    expect(done).toMatchObject({ status: 'imported', entries_created: 600 });
    expect(written).toEqual([
      expect.stringMatching(new RegExp(`^imports/${user.userId}/[0-9a-f]{24}/statement$`)),
    ]);
    expect(await storage.size(written[0])).toBeUndefined();
    expect(await entriesOf(api, user, account)).toHaveLength(500);
    expect(String((await accountOf(api, user, account)).balance)).toBe('-5');
  });
});
