import { connectRedis, createRedisClient } from '../libs/redis/src/redis-client';
import { dropDatabase } from '../libs/resource-store/src/ensure-database';

/** Drops this run's database and deletes its Redis keys. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { pfsTestRedisCluster?: { stop(): Promise<void> } }).pfsTestRedisCluster?.stop();
  if (process.env.DATABASE_URL && process.env.PFS_TEST_RUN_ID) await dropDatabase(process.env.DATABASE_URL);
  const prefix = process.env.REDIS_KEY_PREFIX;
  if (!prefix || !process.env.REDIS_URL) return;
  const redis = createRedisClient({ url: process.env.REDIS_URL, keyPrefix: '' });
  try {
    await connectRedis(redis);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
