import { rateLimitRefusals } from '@pfs/http';
import { isCluster, type ChainableCommander, type Redis } from '@pfs/redis';

/** The metric names the limit by its bucket's kind (`signin-ip`, `token-client`…), never the bucket itself. */
const countRefusal = (bucket: string) => rateLimitRefusals.inc({ limit: bucket.split(':', 1)[0] });

export interface LimitState {
  /** Whether the limit is already reached: the attempt must be refused. */
  blocked: boolean;
  /** Seconds until the window ends, for Retry-After. */
  retryAfterSeconds: number;
}

const FORGIVE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * Fixed-window counters in Redis (INCR + EXPIRE in one MULTI), shared by every instance of the service.
 * Hand-written rather than a library: two commands, and it must honour the client's key prefix.
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly windowSeconds: number,
  ) {}

  private key(bucket: string) {
    return `ratelimit:${bucket}`;
  }

  /**
   * Reads a counter without counting. Only for refusing early where the event itself is not counted (a
   * missing code): to limit attempts, `hit` first, since check-then-count lets a burst through.
   */
  async check(bucket: string, limit: number): Promise<LimitState> {
    const key = this.key(bucket);
    const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.ttl(key)]);
    const blocked = Number(count ?? 0) >= limit;
    if (blocked) countRefusal(bucket);
    return { blocked, retryAfterSeconds: ttl > 0 ? ttl : this.windowSeconds };
  }

  /**
   * Counts one event (a failure, or a request) and says whether the limit is now exceeded. `refuses: false`
   * when the caller only records a failure and refuses nothing now (the refusal is counted when it happens).
   */
  async hit(bucket: string, limit: number, options: { refuses?: boolean } = {}): Promise<LimitState> {
    const key = this.key(bucket);
    const results = await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').ttl(key).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const ttl = Number(results?.[2]?.[1] ?? this.windowSeconds);
    if (count > limit && options.refuses !== false) countRefusal(bucket);
    return { blocked: count > limit, retryAfterSeconds: ttl > 0 ? ttl : this.windowSeconds };
  }

  /**
   * `hit(counted)` and `check(read)` in one Redis round trip (one MULTI): the token endpoint counts each request
   * per network and reads the client's failure count before doing anything else. A refusal of `read` is counted
   * by the caller (`refused`) when it refuses: it may answer another error first.
   */
  async hitAndCheck(
    counted: { bucket: string; limit: number },
    read: { bucket: string; limit: number },
  ): Promise<{ counted: LimitState; read: LimitState }> {
    const [countedKey, readKey] = [this.key(counted.bucket), this.key(read.bucket)];
    const counting = (m: ChainableCommander) =>
      m.incr(countedKey).expire(countedKey, this.windowSeconds, 'NX').ttl(countedKey);
    const reading = (m: ChainableCommander) => m.get(readKey).ttl(readKey);
    // On a Redis Cluster the two counters hash to different slots: one MULTI each, sent together.
    const results = isCluster(this.redis)
      ? (
          await Promise.all([counting(this.redis.multi()).exec(), reading(this.redis.multi()).exec()])
        ).flatMap((part) => part ?? [])
      : await reading(counting(this.redis.multi())).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const countedTtl = Number(results?.[2]?.[1] ?? this.windowSeconds);
    const readCount = Number(results?.[3]?.[1] ?? 0);
    const readTtl = Number(results?.[4]?.[1] ?? this.windowSeconds);
    if (count > counted.limit) countRefusal(counted.bucket);
    return {
      counted: {
        blocked: count > counted.limit,
        retryAfterSeconds: countedTtl > 0 ? countedTtl : this.windowSeconds,
      },
      read: {
        blocked: readCount >= read.limit,
        retryAfterSeconds: readTtl > 0 ? readTtl : this.windowSeconds,
      },
    };
  }

  /** Counts a refusal decided on a state `hitAndCheck` read. */
  refused(bucket: string): void {
    countRefusal(bucket);
  }

  /** Takes back one counted event (an attempt that turned out fine); never below zero, never a new key. */
  async forgive(bucket: string): Promise<void> {
    await this.redis.eval(FORGIVE_SCRIPT, 1, this.key(bucket));
  }

  async reset(bucket: string): Promise<void> {
    await this.redis.del(this.key(bucket));
  }
}
