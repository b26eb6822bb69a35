import type { Redis } from '@pfs/redis';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/** Models that belong to a grant (revoking the grant deletes them) and models that are used once. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode']);
const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode']);

const grantKeyFor = (grantId: string) => `grant:${grantId}`;
const uidKeyFor = (uid: string) => `uid:${uid}`;
const userCodeKeyFor = (userCode: string) => `userCode:${userCode}`;

/**
 * oidc-provider's storage in Redis, as the library's own example Redis adapter does it (one key per model
 * instance, a hash for what can be consumed, a list of keys per grant to revoke it): what a deployment of
 * oidc-provider on Redis would run, so the bench compares PFS's grants with a peer's real storage round trips.
 */
export class OidcRedisAdapter implements Adapter {
  constructor(
    private readonly redis: Redis,
    private readonly name: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const key = this.key(id);
    const multi = this.redis.multi();
    if (CONSUMABLE.has(this.name)) multi.hset(key, { payload: JSON.stringify(payload) });
    else multi.set(key, JSON.stringify(payload));
    if (expiresIn) multi.expire(key, expiresIn);
    if (GRANTABLE.has(this.name) && payload.grantId) {
      const grantKey = grantKeyFor(payload.grantId);
      multi.rpush(grantKey, key);
      // The grant's list lives as long as its longest-lived member.
      const ttl = await this.redis.ttl(grantKey);
      if (expiresIn && expiresIn > ttl) multi.expire(grantKey, expiresIn);
    }
    if (payload.userCode) multi.set(userCodeKeyFor(payload.userCode), id, 'EX', expiresIn ?? 600);
    if (payload.uid) multi.set(uidKeyFor(payload.uid), id, 'EX', expiresIn ?? 600);
    await multi.exec();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const key = this.key(id);
    if (!CONSUMABLE.has(this.name)) {
      const stored = await this.redis.get(key);
      return stored ? (JSON.parse(stored) as AdapterPayload) : undefined;
    }
    const { payload, consumed } = await this.redis.hgetall(key);
    if (!payload) return undefined;
    return {
      ...(JSON.parse(payload) as AdapterPayload),
      ...(consumed ? { consumed: Number(consumed) } : {}),
    };
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = await this.redis.get(uidKeyFor(uid));
    return id ? this.find(id) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = await this.redis.get(userCodeKeyFor(userCode));
    return id ? this.find(id) : undefined;
  }

  async consume(id: string): Promise<void> {
    await this.redis.hset(this.key(id), 'consumed', Math.floor(Date.now() / 1000));
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const grantKey = grantKeyFor(grantId);
    const keys = await this.redis.lrange(grantKey, 0, -1);
    // The list holds keys as this client was given them; `del` adds the client's key prefix again.
    await this.redis
      .multi()
      .del(...keys, grantKey)
      .exec();
  }

  private key(id: string): string {
    return `${this.name}:${id}`;
  }
}
