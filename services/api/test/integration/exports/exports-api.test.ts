import { signDownloadToken } from '@pfs/storage';
import request from 'supertest';
import { parseCsv } from '../../../../worker/test/support/read-export-file';
import { LedgerSeed } from '../../../../worker/test/support/seed-ledger';
import { createTestUser, issueToken, TestUser } from '../../support/api-test-app';
import {
  ExportHarness,
  idFromLocation,
  LINK_SECRET,
  localPath,
  startExportHarness,
  waitForStatus,
} from './export-harness';

const FULL = 'user:rw entries:rw budgets:r';

let harness: ExportHarness;
beforeAll(async () => {
  harness = await startExportHarness();
});
afterAll(() => harness.close());

const app = () => harness.api.app;

async function postExport(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const answer = await request(app()).post('/exports').set('Authorization', user.auth).send(body).expect(201);
  expect(answer.headers.location).toMatch(/\/exports\/\d+$/);
  return idFromLocation(answer.headers.location);
}

describe('POST /exports through the worker to a downloaded file', () => {
  it('when an export is requested, then it reaches sent and its link downloads the CSV the API data describes', async () => {
    const user = await createTestUser(harness.api.deps, FULL + ' accounts:r');
    const seed = new LedgerSeed(harness.api.deps.dataSource, user.userId);
    const account = await seed.account('Current');
    await seed.entry({ account, amount: '-42.10', date: '2026-04-02', description: 'books' });
    await seed.entry({ account, amount: '-0.99', date: '2026-04-03', description: 'app' });
    await seed.entry({ account, amount: '1200', date: '2026-04-05', description: 'salary' });
    const id = await postExport(user, {
      type: 'export',
      resources: ['expenses'],
      formats: ['csv'],
      from: '2026-04-01',
      to: '2026-04-30',
    });
    const sent = await waitForStatus(harness.api, user, id, 'sent');
    expect(sent).toMatchObject({
      id,
      type: 'export',
      resources: ['expenses'],
      formats: ['csv'],
      from: '2026-04-01',
      to: '2026-04-30',
      seen: false,
    });
    expect(sent.data).toMatchObject({
      filename: `expenses-${id}.csv`,
      filesize: expect.any(Number),
      valid_until: expect.stringMatching(/Z$/),
    });
    expect(sent.data.path.startsWith('http://127.0.0.1:3000/export-files/')).toBe(true);
    const file = await request(app())
      .get(localPath(sent.data.path))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="expenses-${id}.csv"`);
    expect((file.body as Buffer).length).toBe(sent.data.filesize);
    const rows = await parseCsv((file.body as Buffer).toString('utf8'));
    const entries = await request(app())
      .get('/entries?from=2026-04-01&to=2026-04-30&type=expense')
      .set('Authorization', user.auth)
      .expect(200);
    const fromApi = (entries.body as Array<{ id: string; amount: number; date: string; desc?: string }>)
      .map((entry) => [entry.date, String(entry.amount), entry.desc ?? '', entry.id])
      .sort();
    const fromFile = rows
      .slice(1)
      .map((row) => [row[0], row[4], row[6], row[8]])
      .sort();
    expect(fromFile).toEqual(fromApi);
    expect(fromFile).toHaveLength(2);
  });

  it('when the export is sent, then /me/notifications holds its notification, readable and deletable once', async () => {
    const user = await createTestUser(harness.api.deps, FULL);
    const id = await postExport(user, { type: 'attachments' });
    await waitForStatus(harness.api, user, id, 'sent');
    const list = await request(app()).get('/me/notifications').set('Authorization', user.auth).expect(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.headers['service-modified']).toBeDefined();
    const [notification] = list.body;
    expect(notification).toMatchObject({
      type: 'export',
      action: 'generated',
      export: id,
      text: expect.stringContaining(`attachments-${id}.zip`),
    });
    const one = await request(app())
      .get(`/me/notifications/${notification.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(one.body).toEqual(notification);
    const other = await createTestUser(harness.api.deps, FULL);
    await request(app())
      .get(`/me/notifications/${notification.id}`)
      .set('Authorization', other.auth)
      .expect(404);
    await request(app())
      .delete(`/me/notifications/${notification.id}`)
      .set('Authorization', other.auth)
      .expect(404);
    const readOnly = await issueToken(harness.api.deps, user.userId, 'user:r');
    await request(app())
      .delete(`/me/notifications/${notification.id}`)
      .set('Authorization', readOnly.auth)
      .expect(403);
    const deleted = await request(app())
      .delete(`/me/notifications/${notification.id}`)
      .set('Authorization', user.auth)
      .expect(204);
    expect(deleted.text).toBe('');
    await request(app())
      .get(`/me/notifications/${notification.id}`)
      .set('Authorization', user.auth)
      .expect(404);
    await request(app())
      .delete(`/me/notifications/${notification.id}`)
      .set('Authorization', user.auth)
      .expect(404);
    const synced = await request(app())
      .get(
        `/me/notifications?include_deleted=true&since=${encodeURIComponent(list.headers['service-modified'])}`,
      )
      .set('Authorization', user.auth)
      .expect(200);
    expect(synced.body).toEqual([expect.objectContaining({ id: notification.id, deleted: true })]);
  });

  it('when another user tries the export, its id is a 404 and a link signed for another file opens nothing', async () => {
    const owner = await createTestUser(harness.api.deps, FULL);
    const id = await postExport(owner, { type: 'attachments' });
    const sent = await waitForStatus(harness.api, owner, id, 'sent');
    const intruder = await createTestUser(harness.api.deps, FULL);
    await request(app()).get(`/exports/${id}`).set('Authorization', intruder.auth).expect(404);
    await request(app())
      .put(`/exports/${id}`)
      .set('Authorization', intruder.auth)
      .send({ seen: true, modified: '2026-01-01 00:00:00.000' })
      .expect(404);
    const theirId = await postExport(intruder, { type: 'attachments' });
    const theirs = await waitForStatus(harness.api, intruder, theirId, 'sent');
    const theirToken = new URL(theirs.data.path).searchParams.get('token')!;
    const ownerPath = new URL(sent.data.path).pathname;
    const forged = await request(app())
      .get(`${ownerPath}?token=${encodeURIComponent(theirToken)}`)
      .expect(403);
    expect(forged.body.error_id).toBe('error.auth.forbidden');
    await request(app()).get(ownerPath).expect(403);
  });

  it('when a link has expired, then it is refused with a clear message', async () => {
    const user = await createTestUser(harness.api.deps, FULL);
    const id = await postExport(user, { type: 'attachments' });
    const sent = await waitForStatus(harness.api, user, id, 'sent');
    const key = new URL(sent.data.path).pathname.replace('/export-files/', '');
    const expired = signDownloadToken(LINK_SECRET, key, new Date(Date.now() - 1000));
    const answer = await request(app())
      .get(`/export-files/${key}?token=${encodeURIComponent(expired)}`)
      .expect(403);
    expect(answer.body.description).toBe('This download link has expired.');
  });

  it('when seen is set with the current modified, then it is stored; without modified it is a 400', async () => {
    const user = await createTestUser(harness.api.deps, FULL);
    const id = await postExport(user, { type: 'attachments' });
    const sent = await waitForStatus(harness.api, user, id, 'sent');
    await request(app())
      .put(`/exports/${id}`)
      .set('Authorization', user.auth)
      .send({ seen: true })
      .expect(400);
    const updated = await request(app())
      .put(`/exports/${id}`)
      .set('Authorization', user.auth)
      .send({ ...sent, seen: true })
      .expect(200);
    expect(updated.body).toMatchObject({ id, seen: true, status: 'sent', type: 'attachments' });
    expect(updated.body.modified).not.toBe(sent.modified);
  });
});

describe('POST /exports validation and scopes', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser(harness.api.deps, FULL);
  });

  it.each([
    [{}, 'type'],
    [{ type: 'everything' }, 'type'],
    [{ type: 'export', formats: ['csv'] }, 'resources'],
    [{ type: 'export', resources: ['expenses'] }, 'formats'],
    [{ type: 'export', resources: ['expenses', 'yachts'], formats: ['csv'] }, 'resources.1'],
    [{ type: 'export', resources: ['expenses'], formats: ['doc'] }, 'formats.0'],
    [{ type: 'export', resources: ['expenses', 'expenses'], formats: ['csv'] }, 'resources'],
    [{ type: 'export', resources: ['expenses'], formats: ['csv'], from: '2026-02-30' }, 'from'],
    [
      { type: 'export', resources: ['expenses'], formats: ['csv'], from: '2026-03-01', to: '2026-02-01' },
      'to',
    ],
    [
      { type: 'export', resources: ['expenses'], formats: ['csv'], filters: { accounts: ['abc'] } },
      'filters.accounts.0',
    ],
    [{ type: 'export', resources: ['expenses'], formats: ['csv'], filters: { budgets: {} } }, 'budgets'],
    [
      {
        type: 'export',
        resources: ['expenses'],
        formats: ['csv'],
        filters: { expenses: { '!colours': ['1'] } },
      },
      '!colours',
    ],
  ])('when the body is %j, then it is a 400 naming %s', async (body, field) => {
    const answer = await request(app())
      .post('/exports')
      .set('Authorization', user.auth)
      .send(body)
      .expect(400);
    expect(answer.body.error_id).toBe('error.input');
    expect(answer.body.fields.map((f: { field: string }) => f.field).join(' ')).toContain(field);
  });

  it('when the token lacks budgets:r or entries:r, then listing is a 403 naming the scope', async () => {
    const noBudgets = await issueToken(harness.api.deps, user.userId, 'entries:rw');
    const answer = await request(app()).get('/exports').set('Authorization', noBudgets.auth).expect(403);
    expect(answer.body.description).toContain('budgets:r');
    const noEntries = await issueToken(harness.api.deps, user.userId, 'budgets:r');
    await request(app()).get('/exports').set('Authorization', noEntries.auth).expect(403);
    const readOnly = await issueToken(harness.api.deps, user.userId, 'entries:r budgets:r');
    await request(app()).get('/exports').set('Authorization', readOnly.auth).expect(200);
    await request(app())
      .post('/exports')
      .set('Authorization', readOnly.auth)
      .send({ type: 'attachments' })
      .expect(403);
  });

  it('when user_data is asked without user:r, then it is a 403; with it, a 201', async () => {
    const noUser = await issueToken(harness.api.deps, user.userId, 'entries:rw budgets:r');
    const answer = await request(app())
      .post('/exports')
      .set('Authorization', noUser.auth)
      .send({ type: 'user_data' })
      .expect(403);
    expect(answer.body.description).toContain('user:r');
    await request(app())
      .post('/exports')
      .set('Authorization', user.auth)
      .send({ type: 'user_data' })
      .expect(201);
  });
});

describe('POST /me/push', () => {
  const REG_ID = `dXy1:APA91b${'F'.repeat(140)}`;
  it('when a device registers, then it is stored once (204) and a bad body is a 400 naming the field', async () => {
    const user = await createTestUser(harness.api.deps, FULL);
    await request(app())
      .post('/me/push')
      .set('Authorization', user.auth)
      .send({ type: 'google', token: REG_ID })
      .expect(204);
    await request(app())
      .post('/me/push')
      .set('Authorization', user.auth)
      .send({ type: 'google', token: REG_ID })
      .expect(204);
    const rows = await harness.api.deps.dataSource.query(
      `SELECT type, token FROM push_tokens WHERE user_id = $1`,
      [user.userId],
    );
    expect(rows).toEqual([{ type: 'google', token: REG_ID }]);
    const badType = await request(app())
      .post('/me/push')
      .set('Authorization', user.auth)
      .send({ type: 'pager', token: 'x' })
      .expect(400);
    expect(badType.body.fields).toEqual([
      { field: 'type', error: 'must be one of apple, apple_fcm, google, windows' },
    ]);
    const noToken = await request(app())
      .post('/me/push')
      .set('Authorization', user.auth)
      .send({ type: 'apple' })
      .expect(400);
    expect(noToken.body.fields[0].field).toBe('token');
    const readOnly = await issueToken(harness.api.deps, user.userId, 'user:r');
    await request(app())
      .post('/me/push')
      .set('Authorization', readOnly.auth)
      .send({ type: 'apple', token: 't' })
      .expect(403);
  });
});
