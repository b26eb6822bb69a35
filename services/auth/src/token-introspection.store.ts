import { AccessTokenRecord, accessTokenKey, grantTokensKey } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';

/**
 * Writes and removes the Redis introspection records the resource API authenticates against.
 * The Redis client carries the deployment's key prefix.
 */
export class TokenIntrospectionStore {
  constructor(private readonly redis: Redis) {}

  /** Records a live access token; `ttlSeconds` undefined means it lives until revoked (personal tokens). */
  async put(tokenHash: string, record: AccessTokenRecord, ttlSeconds?: number): Promise<void> {
    const pipeline = this.redis.multi();
    if (ttlSeconds === undefined) pipeline.set(accessTokenKey(tokenHash), JSON.stringify(record));
    else pipeline.set(accessTokenKey(tokenHash), JSON.stringify(record), 'EX', ttlSeconds);
    if (record.grant_id) pipeline.sadd(grantTokensKey(record.grant_id), tokenHash);
    await pipeline.exec();
  }

  /** Removes the records of the given token hashes and of every token known for the grant. */
  async removeGrant(grantId: string, tokenHashes: string[] = []): Promise<void> {
    const known = await this.redis.smembers(grantTokensKey(grantId));
    const keys = [...new Set([...known, ...tokenHashes])].map(accessTokenKey);
    const pipeline = this.redis.multi();
    if (keys.length) pipeline.del(...keys);
    pipeline.del(grantTokensKey(grantId));
    await pipeline.exec();
  }
}
