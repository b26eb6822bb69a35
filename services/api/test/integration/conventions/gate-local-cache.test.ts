import { accessTokenKey, generateToken, hashToken } from '@pfs/contracts';
import { createRedisClient, type Redis } from '@pfs/redis';
import { PrivateRedis, startPrivateRedis } from '@pfs/testing';
import request from 'supertest';
import { BatcherTuning, RateLimitBatcher } from '../../../src/middleware/rate-limit-batcher';
import { RequestGate } from '../../../src/middleware/request-gate';
import { TrackedKeys } from '../../../src/middleware/tracked-keys';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../support/api-test-app';

/**
 * GATE_LOCAL_CACHE: token records and profiles held in the API process, kept true by Redis client-side
 * caching, and the rate limit counted in batches. On a private Redis, so that its connections can be told
 * apart (CLIENT LIST) and killed, and the server stopped.
 */
let redis: PrivateRedis;
let t: ApiTestApp;
/** Another client of the deployment, as the auth service or another API process would be. */
let other: Redis;
const prefix = 'gate-local:';

beforeAll(async () => {
  redis = await startPrivateRedis();
  t = await startApiTestApp({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, GATE_LOCAL_CACHE: 'on' });
  other = createRedisClient({ url: redis.url, keyPrefix: prefix });
  await other.connect();
});
afterAll(async () => {
  other.disconnect();
  await t.close();
  await redis.stop();
});

const keysOf = (api: ApiTestApp) => api.deps.gate.local!.keys;
const getMe = (auth: string) => request(t.app).get('/me').set('Authorization', auth);

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The id of the API's connection named `name` (TrackedKeys names its two). */
async function connectionId(name: string): Promise<string> {
  const list = (await other.client('LIST')) as string;
  const line = list.split('\n').find((entry) => entry.includes(` name=${name} `));
  if (!line) throw new Error(`no connection named ${name}`);
  return /\bid=(\d+)/.exec(line)![1];
}

describe('the gate with records and profiles held in the process', () => {
  it('when a token record is deleted the way the auth service revokes it, then the very next request is 401', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    await getMe(user.auth).expect(200);
    await getMe(user.auth).expect(200);
    const key = accessTokenKey(hashToken(user.auth.replace('Bearer ', '')));
    expect(keysOf(t).enabled).toBe(true);
    expect(keysOf(t).size).toBeGreaterThan(0);
    await other.del(key);
    const answer = await getMe(user.auth).expect(401);
    expect(answer.body.error_id).toBe('error.auth.unauthenticated');
  });

  it('when the profile is written, then the next GET /me shows the write', async () => {
    const user = await createTestUser(t.deps);
    await getMe(user.auth).expect(200);
    const before = await getMe(user.auth).expect(200);
    expect(before.body.first_name).toBe('Ada');
    await request(t.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...before.body, first_name: 'Grace' })
      .expect(200);
    expect((await getMe(user.auth).expect(200)).body.first_name).toBe('Grace');
  });

  it('when an invalidation arrives while a read of the key is in flight, then what that read got is not held', async () => {
    const reader = createRedisClient({ url: redis.url, keyPrefix: prefix });
    await reader.connect();
    const keys = new TrackedKeys(reader, {
      keyPrefix: prefix,
      prefixes: ['token:'],
      maxEntries: 10,
      maxAgeMs: 60_000,
    });
    try {
      await keys.start();
      await other.set('token:race', 'old');
      // The read's reply waits unread in the socket while the write's invalidation is received and handled.
      const received = keys.invalidations;
      const read = keys.read(['token:race']);
      reader.stream.pause();
      await other.set('token:race', 'new');
      await until(() => keys.invalidations > received, 'the invalidation is received');
      reader.stream.resume();
      expect(await read).toEqual(['old']);
      expect(keys.size).toBe(0);
      expect(await keys.read(['token:race'])).toEqual(['new']);
      expect(keys.size).toBe(1);
    } finally {
      await keys.close();
      reader.disconnect();
    }
  });

  it.each(['pfs-api-invalidations', 'pfs-api-tracking'])(
    'when the %s connection is killed, then everything held is dropped, writes meanwhile are seen, and tracking comes back',
    async (name) => {
      const user = await createTestUser(t.deps, 'user:r');
      await getMe(user.auth).expect(200);
      await until(() => keysOf(t).size > 0, 'the record is held');
      await other.client('KILL', 'ID', await connectionId(name));
      await until(() => !keysOf(t).enabled, 'tracking is off');
      expect(keysOf(t).size).toBe(0);
      // Served meanwhile by the one-trip script, uncached.
      await getMe(user.auth).expect(200);
      await until(() => keysOf(t).enabled, 'tracking is back');
      await getMe(user.auth).expect(200);
      expect(keysOf(t).size).toBeGreaterThan(0);
      await other.del(accessTokenKey(hashToken(user.auth.replace('Bearer ', ''))));
      await getMe(user.auth).expect(401);
    },
  );

  it('when Redis is stopped while records and profiles are held, then 503 with Retry-After; when it is back, tracking comes back', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    await getMe(user.auth).expect(200);
    await getMe(user.auth).expect(200);
    await redis.stop();
    const answer = await getMe(user.auth);
    expect(answer.status).toBe(503);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(keysOf(t).size).toBe(0);
    await redis.start();
    await until(() => keysOf(t).enabled, 'tracking is back');
  });
});

describe('the rate limit counted in batches by several API processes', () => {
  const limit = 64;
  async function startGates(n: number, gateLimit = limit, tuning: BatcherTuning = {}) {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const client = createRedisClient({
          url: redis.url,
          keyPrefix: prefix,
          autoPipelining: true,
          commandTimeoutMs: 400,
        });
        await client.connect();
        const keys = new TrackedKeys(client, {
          keyPrefix: prefix,
          prefixes: ['token:'],
          maxEntries: 100,
          maxAgeMs: 60_000,
        });
        await keys.start();
        const limits = new RateLimitBatcher(client, gateLimit, 86_400_000, tuning);
        const gate = new RequestGate(
          client,
          { keyPrefix: prefix, limit: gateLimit, windowSeconds: 86_400 },
          { keys, limits },
        );
        return { gate, close: async () => (await keys.close(), client.disconnect()) };
      }),
    );
  }
  async function newSubject(): Promise<{ token: string; sub: string }> {
    const token = generateToken();
    const sub = `replicas-${generateToken(6)}`;
    await other.set(
      accessTokenKey(hashToken(token)),
      JSON.stringify({ sub, scope: 'user:r', kind: 'personal' }),
    );
    return { token, sub };
  }
  const evalCalls = async () => {
    const stats = (await other.info('commandstats')) as string;
    return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
  };

  it('when the record is held and the limit decided here, then the check answers at once, as the awaited one did', async () => {
    const [busy] = await startGates(1, 1_000_000, { hotRequests: 1, liveMs: 60_000 });
    const { token, sub } = await newSubject();
    try {
      const awaited = await busy.gate.check(token, '127.0.0.1', { count: true });
      // Once Redis has answered a batch of it, the (busy) subject is decided here.
      await until(
        async () => !(busy.gate.check(token, '127.0.0.1', { count: true }) instanceof Promise),
        'decided here',
      );
      const atOnce = busy.gate.check(token, '127.0.0.1', { count: true });
      expect(atOnce).not.toBeInstanceOf(Promise);
      const held = atOnce as Awaited<typeof atOnce>;
      expect(held.record).toEqual(awaited.record);
      expect(held.record?.sub).toBe(sub);
      expect(held.allowed).toBe(true);
      expect(held.bucketKey).toBe(awaited.bucketKey);
      expect(held.limit).toBe(awaited.limit);
    } finally {
      await busy.close();
    }
  });

  it('when a valid record is held, then the client address is not read; without a valid record it is', async () => {
    const [busy] = await startGates(1, 1_000_000, { hotRequests: 1, liveMs: 60_000 });
    const { token } = await newSubject();
    try {
      const asked: string[] = [];
      const address = (ip: string) => () => (asked.push(ip), ip);
      await busy.gate.check(token, address('10.0.0.1'), { count: true });
      await busy.gate.check(token, address('10.0.0.1'), { count: true });
      expect(asked).toEqual([]);
      const anonymous = await busy.gate.check(undefined, address('10.0.0.2'), { count: true });
      expect(asked).toEqual(['10.0.0.2']);
      expect(anonymous.bucketKey).toContain('ip:10.0.0.2');
      expect(anonymous.record).toBeUndefined();
    } finally {
      await busy.close();
    }
  });

  it('when three processes send 300 requests of one subject at once, then exactly the limit is admitted', async () => {
    const gates = await startGates(3);
    try {
      const { token, sub } = await newSubject();
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => gates[i % 3].gate.check(token, '127.0.0.1', { count: true })),
      );
      expect(results.filter((result) => result.allowed)).toHaveLength(limit);
      expect(results.every((result) => result.record?.sub === sub)).toBe(true);
      const remaining = results.filter((result) => result.allowed).map((result) => result.remaining);
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i));
      const refused = results.filter((result) => !result.allowed);
      expect(refused.every((result) => result.remaining === 0 && result.retryAfterSeconds > 0)).toBe(true);
    } finally {
      for (const { close } of gates) await close();
    }
  });

  it('when three processes each send a busy stream of one subject, then requests are decided locally and at most 3 x limit/16 more than the limit are admitted', async () => {
    const gates = await startGates(3);
    try {
      const { token } = await newSubject();
      const scriptsBefore = await evalCalls();
      let admitted = 0;
      let checks = 0;
      // Eight clients per process, each sending its next request when the last is answered, until refused.
      await Promise.all(
        gates.flatMap(({ gate }) =>
          Array.from({ length: 8 }, async () => {
            for (;;) {
              checks += 1;
              if (!(await gate.check(token, '127.0.0.1', { count: true })).allowed) return;
              admitted += 1;
            }
          }),
        ),
      );
      expect(admitted).toBeGreaterThanOrEqual(limit);
      expect(admitted).toBeLessThanOrEqual(limit + 3 * (limit / 16));
      // Fewer script calls than requests: some were decided here and counted in a later batch.
      expect((await evalCalls()) - scriptsBefore).toBeLessThan(checks);
      const counted = Number(
        await other.get(
          `rl:{${(await gates[0].gate.check(token, '127.0.0.1', { count: false })).record!.sub}}:personal:${Math.floor(Date.now() / 86_400_000)}`,
        ),
      );
      expect(counted).toBe(admitted);
    } finally {
      for (const { close } of gates) await close();
    }
  });

  it('when Redis freezes, then a subject decided here is refused once Redis has not answered for longer than 100 ms', async () => {
    // Every subject counts as busy here, and the limit is high: only the 100 ms rule can make it wait.
    const [busy] = await startGates(1, 1_000_000, { hotRequests: 1, liveMs: 100 });
    const { token } = await newSubject();
    try {
      await busy.gate.check(token, '127.0.0.1', { count: true });
      await busy.gate.check(token, '127.0.0.1', { count: true });
      // Decided here right after an answer, without waiting (the only way it can pass a frozen Redis).
      await new Promise((resolve) => setImmediate(resolve));
      redis.freeze();
      expect((await busy.gate.check(token, '127.0.0.1', { count: true })).allowed).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(busy.gate.check(token, '127.0.0.1', { count: true })).rejects.toThrow(/timed out/i);
    } finally {
      redis.thaw();
      await busy.close();
    }
  });
});
