export { closeQueueAndConnection } from './queue-connection';
export type { QueueOnSharedConnection } from './queue-connection';
export {
  closeRedis,
  connectRedis,
  createRedisClient,
  deleteKeys,
  getMany,
  isCluster,
  keysMatching,
  scanKeys,
  openRedis,
  redisAddressOf,
  redisOptionsOf,
  redisTimeouts,
} from './redis-client';
export type { ClusterNode, Redis, RedisClientOptions } from './redis-client';
export type { ChainableCommander } from 'ioredis';
