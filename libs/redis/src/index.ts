export { closeQueueAndConnection } from './queue-connection';
export type { QueueOnSharedConnection } from './queue-connection';
export {
  closeRedis,
  connectRedis,
  createRedisClient,
  openRedis,
  redisOptionsOf,
  redisTimeouts,
} from './redis-client';
export type { Redis, RedisClientOptions } from './redis-client';
