import { RequestGate } from '@pfs/api';
import { accessTokenKey, hashToken } from '@pfs/contracts';
import { closeRedis, connectRedis, createRedisClient } from '@pfs/redis';
import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { defaultSeconds } from '../measure';
import { measureTokenGrants } from './token-grants';

const IN_FLIGHT = 16;

/** Runs `operation` with `IN_FLIGHT` calls always outstanding for `seconds`; returns completed calls a second. */
async function opsPerSecond(operation: () => Promise<unknown>, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await operation();
      done += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return done / ((Date.now() - started) / 1000);
}

/**
 * The API's token check (RequestGate: introspection record, rate limit, in one Redis script) called in a loop
 * with 16 in flight, beside a bare Redis `GET` of the same record with the same client settings (the API's:
 * auto-pipelined) in the same run.
 */
async function measureIntrospection(context: BenchContext): Promise<void> {
  const user = await context.createUser();
  const token = user.auth.slice('Bearer '.length);
  const redis = createRedisClient({
    url: context.env.REDIS_URL,
    keyPrefix: context.env.REDIS_KEY_PREFIX,
    autoPipelining: true,
  });
  await connectRedis(redis);
  try {
    const gate = new RequestGate(redis, {
      keyPrefix: context.env.REDIS_KEY_PREFIX,
      limit: 1_000_000_000,
      windowSeconds: 60,
    });
    const checked = await gate.check(token, '127.0.0.1', { count: true });
    if (checked.record?.sub !== user.userId) throw new Error('the token check did not find the bench token');
    const seconds = defaultSeconds();
    const key = accessTokenKey(hashToken(token));
    const bare = await opsPerSecond(() => redis.get(key), seconds);
    const gated = await opsPerSecond(async () => gate.check(token, '127.0.0.1', { count: true }), seconds);
    context.compare(
      `token check (RequestGate.check, ${IN_FLIGHT} in flight) vs bare Redis GET loop`,
      gated,
      'GET',
      bare,
      'checks/s',
    );
  } finally {
    await closeRedis(redis);
  }
}

/** Token costs: grants per second beside oidc-provider, and the API's token check beside a bare Redis GET. */
export const tokensSuite: BenchSuite = {
  name: 'tokens',
  async run(context) {
    await measureTokenGrants(context);
    await measureIntrospection(context);
  },
};
