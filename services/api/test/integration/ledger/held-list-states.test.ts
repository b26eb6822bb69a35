import { LIST_VERSION_QUIET_MS, ListVersionSignals, signalListVersionMoved } from '@pfs/contracts';
import { createRedisClient, type Redis } from '@pfs/redis';
import { UserStore } from '@pfs/resource-store';
import { PrivateRedis, startPrivateRedis } from '@pfs/testing';
import request from 'supertest';
import { HELD_LIST_STATE_MAX_AGE_MS, HeldListStates } from '../../../src/http/held-list-states';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from './ledger-http';

/**
 * The list version held in each API process (HeldListStates): two API processes (apps) on one private Redis
 * (its connections can be killed) and the run's Postgres. The risk pinned: an unchanged page answered from a
 * held version that a committed write has moved.
 */
let redis: PrivateRedis;
let a: ApiTestApp;
let b: ApiTestApp;
/** Another client of the deployment (the worker, the auth service, the CLI). */
let other: Redis;
let user: TestUser;
let account: string;
let category: string;
const prefix = 'held-list-states:';

beforeAll(async () => {
  redis = await startPrivateRedis();
  const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, GATE_LOCAL_CACHE: 'on' };
  [a, b] = await Promise.all([startApiTestApp(env), startApiTestApp(env)]);
  other = createRedisClient({ url: redis.url, keyPrefix: prefix });
  await other.connect();
});
afterAll(async () => {
  other.disconnect();
  await Promise.all([a.close(), b.close()]);
  await redis.stop();
});
beforeEach(async () => {
  user = await createTestUser(a.deps);
  account = await postAccount(a.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  category = await createCategory(a.app, user, { name: 'Food', type: 'expense' });
  await addEntry(a, 'lunch');
});

const addEntry = (api: ApiTestApp, desc: string) =>
  postEntry(api.app, user, {
    amount: -3,
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account,
    category,
    desc,
  });
const page = (api: ApiTestApp) =>
  request(api.app).get('/entries?per_page=10').set('Authorization', user.auth).expect(200);
const descriptions = async (api: ApiTestApp) =>
  (await page(api)).body.map((entry: { desc: string }) => entry.desc).sort();
/** Renames behind every API's back (no version move): only a page built after a version move shows it. */
const sneakyRename = (desc: string) =>
  a.deps.dataSource.query(`UPDATE entries SET description = $2 WHERE user_id = $1`, [user.userId, desc]);
/** A write of the user by another service's store: `signal` as the worker, auth and CLI wire it, or none. */
const otherServiceWrite = (signal: boolean) =>
  new UserStore(a.deps.dataSource, undefined, (userId) =>
    signal
      ? signalListVersionMoved(other, userId, (error) => {
          throw error;
        })
      : Promise.resolve(),
  ).change(user.userId, async () => undefined);
const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, LIST_VERSION_QUIET_MS + 20));
/** Two pages from `api` once the user's quiet period is over: the first stores the page, the second holds the version. */
async function heldOn(api: ApiTestApp): Promise<void> {
  await quietPeriod();
  await page(api);
  await page(api);
  expect(api.deps.listStates.holds(user.userId)).toBe(true);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('each user list version held in the API process', () => {
  it('when a write goes through process A, then the very next page from process B shows it', async () => {
    await heldOn(b);
    expect(await descriptions(b)).toEqual(['lunch']);
    await addEntry(a, 'dinner');
    expect(await descriptions(b)).toEqual(['dinner', 'lunch']);
    await addEntry(b, 'breakfast');
    expect(await descriptions(b)).toEqual(['breakfast', 'dinner', 'lunch']);
    expect(await descriptions(a)).toEqual(['breakfast', 'dinner', 'lunch']);
  });

  it('when another service writes and signals (worker, auth, CLI), then the next page shows it; without the signal, the held version lives at most its age', async () => {
    await heldOn(b);
    await sneakyRename('signalled');
    await otherServiceWrite(true);
    expect(await descriptions(b)).toEqual(['signalled']);

    await heldOn(b);
    await sneakyRename('unsignalled');
    await otherServiceWrite(false);
    // The held version is still used: the page stored at it is served (this is what the signal prevents).
    expect(await descriptions(b)).toEqual(['signalled']);
    await new Promise((resolve) => setTimeout(resolve, HELD_LIST_STATE_MAX_AGE_MS + 50));
    expect(await descriptions(b)).toEqual(['unsignalled']);
  });

  it('when a write commits and signals while a read of the version is in flight, then what that read got is not held', async () => {
    const keys = b.deps.gate.local!.keys;
    for (const signalledBy of ['another process', 'this process'] as const) {
      let readDone!: () => void;
      const readReturned = new Promise<void>((resolve) => (readDone = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const slowStore = {
        listState: async (userId: string) => {
          const state = await b.deps.store.listState(userId);
          readDone();
          await released;
          return state;
        },
      };
      const held = new HeldListStates(slowStore, keys);
      const read = held.listState(user.userId);
      await readReturned;
      if (signalledBy === 'another process') {
        const received = keys.invalidations;
        await otherServiceWrite(true);
        await until(() => keys.invalidations > received, 'the invalidation is received');
      } else {
        // A write in this process drops its copy itself (the API's UserStore does it before signalling).
        await otherServiceWrite(false);
        held.forget(user.userId);
      }
      release();
      const old = await read;
      expect(held.size).toBe(0);
      await quietPeriod();
      const fresh = await held.listState(user.userId);
      expect(fresh.version).not.toBe(old.version);
      expect(held.size).toBe(1);
    }
  });

  it('when the invalidations connection is lost, then nothing held is used until tracking is back', async () => {
    await heldOn(b);
    const list = (await other.client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(' name=pfs-api-invalidations '))
      .map((line) => /\bid=(\d+)/.exec(line)![1]);
    for (const id of ids) await other.client('KILL', 'ID', id);
    await until(() => !b.deps.gate.local!.keys.enabled, 'tracking is off');
    expect(b.deps.listStates.size).toBe(0);
    await sneakyRename('while off');
    await otherServiceWrite(false);
    expect(await descriptions(b)).toEqual(['while off']);
    await until(() => b.deps.gate.local!.keys.enabled, 'tracking is back');
    await heldOn(b);
  });

  it('when a user writes in a burst, then one signal covers the writes of its window, and each page from B shows every write', async () => {
    const setCalls = async () =>
      Number(/cmdstat_set:calls=(\d+)/.exec((await other.info('commandstats')) as string)?.[1] ?? 0);
    const signals = new ListVersionSignals(other, (error) => {
      throw error;
    });
    const before = await setCalls();
    await Promise.all([signals.moved('burst'), signals.moved('burst'), signals.moved('burst')]);
    expect((await setCalls()) - before).toBe(1);

    await heldOn(b);
    for (const desc of ['one', 'two', 'three']) {
      await addEntry(a, desc);
      expect(await descriptions(b)).toContain(desc);
    }
  });
});
