import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

async function notify(user: TestUser, text: string): Promise<void> {
  await api.deps.dataSource.query(
    `INSERT INTO notifications (user_id, type, action, text, change_seq, modified_at)
     VALUES ($1, 'news', 'info', $2, 0, date_trunc('milliseconds', clock_timestamp()))`,
    [user.userId, text],
  );
}
const list = (user: TestUser, query = '') =>
  request(api.app).get(`/me/notifications${query}`).set('Authorization', user.auth).expect(200);

describe('POST /me/notifications/dismiss_all', () => {
  it('when every notification is dismissed, then the list is empty, sync reports them deleted, and another user keeps theirs', async () => {
    const user = await createTestUser(api.deps, 'user:rw');
    const other = await createTestUser(api.deps, 'user:rw');
    await notify(user, 'one');
    await notify(user, 'two');
    await notify(other, 'theirs');
    const since = (await list(user)).headers['service-modified'];
    await request(api.app).post('/me/notifications/dismiss_all').set('Authorization', user.auth).expect(204);
    expect((await list(user)).body).toEqual([]);
    const synced = await list(user, `?since=${encodeURIComponent(since)}&include_deleted=true`);
    expect(
      synced.body.map((item: { text: string; deleted: boolean }) => [item.text, item.deleted]).sort(),
    ).toEqual([
      ['one', true],
      ['two', true],
    ]);
    expect((await list(other)).body.map((item: { text: string }) => item.text)).toEqual(['theirs']);
    // Nothing left to dismiss is still a 204; a read-only token may not.
    await request(api.app).post('/me/notifications/dismiss_all').set('Authorization', user.auth).expect(204);
    const reader = await createTestUser(api.deps, 'user:r');
    await request(api.app)
      .post('/me/notifications/dismiss_all')
      .set('Authorization', reader.auth)
      .expect(403);
  });
});
