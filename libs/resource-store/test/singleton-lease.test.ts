import { AdvisoryLocks, createDataSource } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';

/** Singleton work across processes: a transaction-level advisory lock, held for the work, gone after it. */
const KEY = 7_246_399_001;

let source: DataSource;
beforeAll(async () => {
  source = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 4 });
  await source.initialize();
});
afterAll(() => source.destroy());

const heldLocks = async () =>
  Number(
    (
      await source.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = ($1::bigint & 4294967295)::oid`,
        [KEY],
      )
    )[0].n,
  );

describe('AdvisoryLocks.runIfFree', () => {
  it('when two callers race, then one runs the work while holding the lock and the other skips at once', async () => {
    const locks = new AdvisoryLocks(source);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let seenDuringWork = -1;
    const first = locks.runIfFree(KEY, async () => {
      seenDuringWork = await heldLocks();
      await gate;
      return 'ran';
    });
    while (seenDuringWork < 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await locks.runIfFree(KEY, async () => 'second ran')).toBeUndefined();
    release();
    expect(await first).toBe('ran');
    expect(seenDuringWork).toBe(1);
    // Released with its transaction: nothing left holding it, and the next caller runs.
    expect(await heldLocks()).toBe(0);
    expect(await locks.runIfFree(KEY, async () => 'again')).toBe('again');
  });

  it('when the work throws, then the lock is released and the error reaches the caller', async () => {
    const locks = new AdvisoryLocks(source);
    await expect(
      locks.runIfFree(KEY, async () => {
        throw new Error('pass failed');
      }),
    ).rejects.toThrow('pass failed');
    expect(await heldLocks()).toBe(0);
  });
});
