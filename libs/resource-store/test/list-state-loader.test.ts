import { createDataSource, resourceEntities, UserStore } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';

let source: DataSource;
let prepared: DataSource;
let store: UserStore;
const userIds: string[] = [];

/** Every statement sent on `dataSource`: TypeORM's query, or pg's pool when it prepares (prepared-query.ts). */
function countStatements(dataSource: DataSource) {
  const pool = (dataSource.driver as unknown as { master: { query: () => unknown } }).master;
  const spies = [jest.spyOn(dataSource, 'query'), jest.spyOn(pool, 'query')];
  return {
    count: () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

beforeAll(async () => {
  source = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 4, entities: resourceEntities });
  prepared = createDataSource({
    url: process.env.DATABASE_URL!,
    poolSize: 4,
    entities: resourceEntities,
    preparedStatements: true,
  });
  await Promise.all([source.initialize(), prepared.initialize()]);
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
  await Promise.all([source.destroy(), prepared.destroy()]);
});

describe('UserStore.listState', () => {
  it.each([
    ['unnamed', () => source],
    ['prepared', () => prepared],
  ])(
    "reads concurrent requests' states in one statement, each user its own state (%s)",
    async (_, sourceOf) => {
      const dataSource = sourceOf();
      const reads = new UserStore(dataSource);
      await reads.listState(userIds[0]);
      await store.change(userIds[1], async () => undefined);
      const statements = countStatements(dataSource);
      try {
        const [a, b, c, missing] = await Promise.all([
          ...userIds.map((userId) => reads.listState(userId)),
          reads.listState('999999999999'),
        ]);
        expect(statements.count()).toBe(1);
        expect(a.version).toMatch(/^0:\d+$/);
        expect(b.version).toMatch(/^[1-9]\d*:\d+$/);
        expect(c.version).toMatch(/^0:\d+$/);
        expect(missing.version).toBe('none');
        expect(a.settings.main).toBe('EUR');
      } finally {
        statements.restore();
      }
    },
  );

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
