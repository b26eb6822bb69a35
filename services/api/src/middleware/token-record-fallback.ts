import { AccessTokenRecord, accessTokenKey, hashToken, introspectionRecordOf } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';
import type { DataSource } from 'typeorm';

/** How long a token Postgres does not know stays refused without asking Postgres again. */
const UNKNOWN_TTL_MS = 30_000;
/** Bound of the in-process list of unknown tokens (cleared when full: it only saves queries). */
const MAX_UNKNOWN = 10_000;

/**
 * The token's live row, by the same rules the auth service restores records by: not revoked; an access
 * token unexpired and of a grant that is not revoked; a personal token until revoked.
 */
const LIVE_TOKEN_SQL = `
  SELECT t.id::text AS id, t.kind, t.user_id::text AS user_id, t.client_id, t.scope,
         t.grant_id::text AS grant_id, t.expires_at
    FROM oauth_tokens t LEFT JOIN oauth_grants g ON g.id = t.grant_id
   WHERE t.token_hash = $1 AND t.revoked_at IS NULL
     AND (t.kind = 'personal'
          OR (t.kind = 'access' AND t.expires_at > now() AND (t.grant_id IS NULL OR g.revoked_at IS NULL)))`;

interface LiveTokenRow {
  id: string;
  kind: 'access' | 'personal';
  user_id: string;
  client_id: string | null;
  scope: string;
  grant_id: string | null;
  expires_at: Date | null;
}

/** The introspection record the auth service writes for this token (TokenIntrospectionStore). */
function recordOf(row: LiveTokenRow): AccessTokenRecord {
  return row.kind === 'personal'
    ? introspectionRecordOf({ kind: 'personal', userId: row.user_id, scope: row.scope, tokenId: row.id })
    : introspectionRecordOf({
        kind: 'access',
        userId: row.user_id,
        scope: row.scope,
        clientId: row.client_id ?? undefined,
        grantId: row.grant_id ?? undefined,
        expiresAt: row.expires_at!,
      });
}

export class TokenRecordFallback {
  private readonly unknown = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
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

  private async liveRow(tokenHash: string): Promise<LiveTokenRow | undefined> {
    const rows: LiveTokenRow[] = await this.dataSource.query(LIVE_TOKEN_SQL, [tokenHash]);
    return rows[0];
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
