import type { Redis } from '@pfs/redis';

/**
 * Per-user concurrency across every worker process: a user's running exports are members of a Redis
 * sorted set scored by lease expiry. A worker that dies loses its lease when the score passes, so a
 * crashed process never blocks the user for good. The script is atomic: two workers cannot both take
 * the last slot.
 */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0`;

export interface UserSlots {
  /** How long a slot is held without renewal; holders renew well within it. */
  readonly leaseMs: number;
  /** True when the export may run now; renew() keeps the lease while it runs. */
  acquire(userId: string, exportId: string): Promise<boolean>;
  renew(userId: string, exportId: string): Promise<void>;
  release(userId: string, exportId: string): Promise<void>;
}

/** `redis` is a client with the deployment's key prefix (see @pfs/redis). */
export function createUserSlots(redis: Redis, limit: number, leaseMs = 60_000): UserSlots {
  const key = (userId: string) => `export:running:${userId}`;
  const acquire = async (userId: string, exportId: string) => {
    const now = Date.now();
    const result = await redis.eval(
      ACQUIRE,
      1,
      key(userId),
      now,
      now + leaseMs,
      exportId,
      limit,
      leaseMs * 2,
    );
    return result === 1;
  };
  return {
    leaseMs,
    acquire,
    async renew(userId, exportId) {
      await acquire(userId, exportId);
    },
    async release(userId, exportId) {
      await redis.zrem(key(userId), exportId);
    },
  };
}
