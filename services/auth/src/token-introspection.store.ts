import { AccessTokenRecord, accessTokenKey, grantTokensKey, introspectionRecordOf } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';

/** What an OAuth access token's record says, before it becomes the wire shape. */
export interface AccessTokenFacts {
  userId: string;
  clientId: string;
  scope: string;
  grantId: string;
  expiresAt: Date;
}

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
    if (record.grant_id) {
      const grantKey = grantTokensKey(record.grant_id);
      pipeline.sadd(grantKey, tokenHash);
      // The set lives as long as its longest-lived token: set a TTL if it has none, extend it if shorter.
      if (ttlSeconds !== undefined)
        pipeline.expire(grantKey, ttlSeconds, 'NX').expire(grantKey, ttlSeconds, 'GT');
    }
    await pipeline.exec();
  }

  /** Records an OAuth access token with a Redis TTL of its remaining lifetime; an expired one is skipped. */
  async putAccessToken(tokenHash: string, facts: AccessTokenFacts): Promise<void> {
    const ttlSeconds = Math.ceil((facts.expiresAt.getTime() - Date.now()) / 1000);
    if (ttlSeconds <= 0) return;
    await this.put(tokenHash, introspectionRecordOf({ kind: 'access', ...facts }), ttlSeconds);
  }

  /** Records a personal token: no expiry, it lives until revoked. */
  async putPersonalToken(tokenHash: string, facts: { userId: string; tokenId: string; scope: string }) {
    await this.put(tokenHash, introspectionRecordOf({ kind: 'personal', ...facts }));
  }

  async remove(tokenHash: string): Promise<void> {
    await this.redis.del(accessTokenKey(tokenHash));
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
