export { closeRedis, connectRedis, createRedisClient } from './redis-client';
export type { Redis, RedisClientOptions } from './redis-client';
