export { closeRedis, connectRedis, createRedisClient, openRedis } from './redis-client';
export type { Redis, RedisClientOptions } from './redis-client';
