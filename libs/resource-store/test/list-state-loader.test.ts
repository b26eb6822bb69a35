import { createDataSource, resourceEntities, UserStore } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';

let source: DataSource;
let store: UserStore;
const userIds: string[] = [];

beforeAll(async () => {
  source = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 4, entities: resourceEntities });
  await source.initialize();
  store = new UserStore(source);
  for (const name of ['a', 'b', 'c']) {
    const rows: Array<{ id: string }> = await source.query(
      `INSERT INTO users (email) VALUES ($1) RETURNING id::text AS id`,
      [`list-state-${name}-${Date.now()}-${Math.random()}@example.test`],
    );
    userIds.push(rows[0].id);
  }
});
afterAll(async () => {
  await source.query(`DELETE FROM user_sync_state WHERE user_id = ANY($1::bigint[])`, [userIds]);
  await source.query(`DELETE FROM users WHERE id = ANY($1::bigint[])`, [userIds]);
  await source.destroy();
});

describe('UserStore.listState', () => {
  it("reads concurrent requests' states in one statement, each user its own state", async () => {
    await store.change(userIds[1], async () => undefined);
    const query = jest.spyOn(source, 'query');
    try {
      const [a, b, c, missing] = await Promise.all([
        ...userIds.map((userId) => store.listState(userId)),
        store.listState('999999999999'),
      ]);
      expect(query).toHaveBeenCalledTimes(1);
      expect(a.version).toMatch(/^0:\d+$/);
      expect(b.version).toMatch(/^1:\d+$/);
      expect(c.version).toMatch(/^0:\d+$/);
      expect(missing.version).toBe('none');
      expect(a.settings.main).toBe('EUR');
    } finally {
      query.mockRestore();
    }
  });

  it('sees every change committed before it was asked (no state is kept between reads)', async () => {
    const before = await store.listState(userIds[0]);
    await store.change(userIds[0], async () => undefined);
    const after = await store.listState(userIds[0]);
    expect(after.version).not.toBe(before.version);
    expect(after.version.split(':')[0]).toBe(String(Number(before.version.split(':')[0]) + 1));
  });

  it('fails only the read of an id that is not a user id, not the others read with it', async () => {
    const [bad, good] = await Promise.allSettled([
      store.listState('not-a-number'),
      store.listState(userIds[2]),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
  });
});
