import { AccessTokenRecord, accessTokenKey, grantTokensKey, introspectionRecordOf } from '@pfs/contracts';
import { deleteKeys, isCluster, type ChainableCommander, type Redis } from '@pfs/redis';

/** Runs queued commands; a command's error (which `exec` only reports in its results) is thrown. */
async function run(commands: ChainableCommander): Promise<void> {
  const failed = (await commands.exec())?.find(([error]) => error);
  if (failed) throw failed[0];
}

/**
 * The grant's set learns the token and the record is written, in one script on one Redis (atomic, as a MULTI
 * was, but one reply instead of a MULTI's six: measured in-process, a MULTI of this shape costs the client about
 * three times the CPU of one script call). KEYS: the record, the grant's set; ARGV: the record's JSON, the token
 * hash, the TTL in seconds or '' for none. The set lives as long as its longest-lived token: a TTL is set if it
 * has none, extended if shorter.
 */
const PUT_WITH_GRANT_SCRIPT = `
redis.call('SADD', KEYS[2], ARGV[2])
if ARGV[3] == '' then
  redis.call('SET', KEYS[1], ARGV[1])
else
  redis.call('EXPIRE', KEYS[2], ARGV[3], 'NX')
  redis.call('EXPIRE', KEYS[2], ARGV[3], 'GT')
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
end
return 1`;

interface IntrospectionCommands {
  pfsIntrospectionPut(
    recordKey: string,
    grantKey: string,
    record: string,
    tokenHash: string,
    ttlSeconds: string,
  ): Promise<number>;
}

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
  constructor(private readonly redis: Redis) {
    if (!('pfsIntrospectionPut' in redis)) {
      redis.defineCommand('pfsIntrospectionPut', { numberOfKeys: 2, lua: PUT_WITH_GRANT_SCRIPT });
    }
  }

  /**
   * Records a live access token; `ttlSeconds` undefined means it lives until revoked (personal tokens).
   * On one Redis the grant's set learns the token and the record is written in one script: one round trip on
   * every grant's path, and atomic, so a revocation of the grant never runs between the two. On a Redis Cluster
   * the two keys hash to different slots (no MULTI spans them): the set first, then the record, so a revocation
   * that runs in between still finds the token (a record never exists that its grant does not list).
   */
  async put(tokenHash: string, record: AccessTokenRecord, ttlSeconds?: number): Promise<void> {
    const recordKey = accessTokenKey(tokenHash);
    const value = JSON.stringify(record);
    const setRecord = (commands: ChainableCommander) =>
      ttlSeconds === undefined
        ? commands.set(recordKey, value)
        : commands.set(recordKey, value, 'EX', ttlSeconds);
    if (!record.grant_id) {
      await run(setRecord(this.redis.pipeline()));
      return;
    }
    const grantKey = grantTokensKey(record.grant_id);
    if (!isCluster(this.redis)) {
      const ttl = ttlSeconds === undefined ? '' : String(ttlSeconds);
      const commands = this.redis as unknown as IntrospectionCommands;
      await commands.pfsIntrospectionPut(recordKey, grantKey, value, tokenHash, ttl);
      return;
    }
    const grant = this.redis.multi().sadd(grantKey, tokenHash);
    // The set lives as long as its longest-lived token: set a TTL if it has none, extend it if shorter.
    if (ttlSeconds !== undefined) grant.expire(grantKey, ttlSeconds, 'NX').expire(grantKey, ttlSeconds, 'GT');
    await run(grant);
    await run(setRecord(this.redis.pipeline()));
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
    // The records first, then the set that lists them (each key in its own slot on a cluster).
    await deleteKeys(this.redis, keys);
    await this.redis.del(grantTokensKey(grantId));
  }
}
