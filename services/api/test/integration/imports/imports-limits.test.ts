import { readdir } from 'node:fs/promises';
import { createTestUser } from '../../support/api-test-app';
import { createAccount, ImportHarness, postImport, startImportHarness } from './import-harness';

let harness: ImportHarness;
beforeAll(async () => {
  harness = await startImportHarness({ IMPORT_MAX_BYTES: '2048' });
});
afterAll(() => harness.close());

const storedFiles = async () =>
  (await readdir(harness.storageDir, { recursive: true, withFileTypes: true })).filter((entry) =>
    entry.isFile(),
  );

describe('POST /imports limits', () => {
  it('when the file passes IMPORT_MAX_BYTES, then it is a 413 and nothing stays in storage', async () => {
    const user = await createTestUser(harness.api.deps, 'entries:rw accounts:rw');
    const account = await createAccount(harness.api, user);
    const big = `Date,Amount\n${'2026-01-01,-1.00\n'.repeat(200)}`;
    const answer = await postImport(harness.api, user, big, 'big.csv', { account }).expect(413);
    expect(answer.body.error_id).toBe('error.payload.too_large');
    expect(await storedFiles()).toEqual([]);
    const empty = await postImport(harness.api, user, '', 'empty.csv', { account }).expect(400);
    expect(JSON.stringify(empty.body)).toMatch(/file/);
    expect(await storedFiles()).toEqual([]);
    await postImport(harness.api, user, 'Date,Amount\n2026-01-01,-1.00\n', 'ok.csv', { account }).expect(201);
  });
});
