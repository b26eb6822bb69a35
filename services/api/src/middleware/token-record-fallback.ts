import { AccessTokenRecord, accessTokenKey, hashToken, introspectionRecordOf } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';
import type { LiveToken, LiveTokenRepository } from '@pfs/resource-store';

/** How long a token Postgres does not know stays refused without asking Postgres again. */
const UNKNOWN_TTL_MS = 30_000;
/** Bound of the in-process list of unknown tokens (cleared when full: it only saves queries). */
const MAX_UNKNOWN = 10_000;

/** The introspection record the auth service writes for this token (TokenIntrospectionStore). */
function recordOf(token: LiveToken): AccessTokenRecord {
  return token.kind === 'personal'
    ? introspectionRecordOf({ kind: 'personal', userId: token.userId, scope: token.scope, tokenId: token.id })
    : introspectionRecordOf({
        kind: 'access',
        userId: token.userId,
        scope: token.scope,
        clientId: token.clientId ?? undefined,
        grantId: token.grantId ?? undefined,
        expiresAt: token.expiresAt!,
      });
}

export class TokenRecordFallback {
  private readonly unknown = new Map<string, number>();

  constructor(
    private readonly liveTokens: LiveTokenRepository,
    private readonly redis: Redis,
  ) {}

  /** The token's record from Postgres, re-warmed in Redis; undefined when it is unknown, revoked or expired. */
  async recover(token: string): Promise<AccessTokenRecord | undefined> {
    const tokenHash = hashToken(token);
    if ((this.unknown.get(tokenHash) ?? 0) > Date.now()) return undefined;
    const row = await this.liveRow(tokenHash);
    if (!row) {
      if (this.unknown.size >= MAX_UNKNOWN) this.unknown.clear();
      this.unknown.set(tokenHash, Date.now() + UNKNOWN_TTL_MS);
      return undefined;
    }
    const record = recordOf(row);
    await this.rewarm(tokenHash, record);
    // Revoked while we were writing? Then the auth service's delete may have come before our write.
    if (!(await this.liveRow(tokenHash))) {
      await this.redis.del(accessTokenKey(tokenHash));
      return undefined;
    }
    return record;
  }

  /** The token if it is live, by the rule the auth service restores records by (LiveTokenRepository). */
  private async liveRow(tokenHash: string): Promise<LiveToken | undefined> {
    return this.liveTokens.find(tokenHash);
  }

  private async rewarm(tokenHash: string, record: AccessTokenRecord): Promise<void> {
    const key = accessTokenKey(tokenHash);
    if (record.exp === undefined) {
      await this.redis.set(key, JSON.stringify(record), 'NX');
      return;
    }
    const ttlSeconds = record.exp - Math.floor(Date.now() / 1000);
    if (ttlSeconds > 0) await this.redis.set(key, JSON.stringify(record), 'EX', ttlSeconds, 'NX');
  }
}
