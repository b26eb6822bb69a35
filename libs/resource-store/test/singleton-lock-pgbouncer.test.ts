import { createDataSource } from '@pfs/resource-store';
import { PrivatePgBouncer, startPgBouncer } from '@pfs/testing';
import type { DataSource } from 'typeorm';
import { runWithXactLock } from '../src/singleton-lock';

/** Singleton work (the materializer, the export sweeper, migrations) through PgBouncer in transaction mode. */

const KEY = 7_164_000_042;
let bouncer: PrivatePgBouncer;
let first: DataSource;
let second: DataSource;

beforeAll(async () => {
  bouncer = await startPgBouncer({ poolMode: 'transaction', poolSize: 2 });
  const url = bouncer.url(new URL(process.env.DATABASE_URL!).pathname.slice(1));
  // Two processes' pools, both through the same pooler.
  [first, second] = [createDataSource({ url, poolSize: 3 }), createDataSource({ url, poolSize: 3 })];
  await Promise.all([first.initialize(), second.initialize()]);
});
afterAll(async () => {
  await Promise.all([first?.destroy(), second?.destroy()]);
  await bouncer.stop();
});

describe('runWithXactLock through PgBouncer (transaction mode)', () => {
  it('when one process runs the work, then another skips; once it ends, the lock is free again', async () => {
    const skipped = await runWithXactLock(
      first,
      KEY,
      async () => {
        // Statements of other clients run meanwhile on the pooler's other server connection.
        await second.query('SELECT 1');
        return runWithXactLock(second, KEY, async () => 'ran', 'busy');
      },
      'busy',
    );
    expect(skipped).toBe('busy');
    // Nothing is left held on a pooled server connection: both processes can take it now, again and again.
    for (let round = 0; round < 4; round += 1) {
      expect(await runWithXactLock(round % 2 ? first : second, KEY, async () => 'ran', 'busy')).toBe('ran');
    }
  });

  it('when the work fails, then the lock is released with its transaction', async () => {
    await expect(
      runWithXactLock(first, KEY, () => Promise.reject(new Error('pass failed')), 'busy'),
    ).rejects.toThrow('pass failed');
    expect(await runWithXactLock(second, KEY, async () => 'ran', 'busy')).toBe('ran');
  });

  it('when a waiting caller asks (migrations), then it runs once the holder is done', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holder = runWithXactLock(
      first,
      KEY,
      async () => {
        order.push('holder');
        await held;
      },
      undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiter = runWithXactLock(second, KEY, async () => void order.push('waiter'), undefined, true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(['holder']);
    release();
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['holder', 'waiter']);
  });
});
