import type { DataSource } from 'typeorm';

/** A token the resource API must accept: what its introspection record is built from. */
export interface LiveToken {
  id: string;
  tokenHash: string;
  kind: 'access' | 'personal';
  userId: string;
  clientId: string | null;
  grantId: string | null;
  scope: string;
  expiresAt: Date | null;
}

/**
 * The one rule of a live token: not revoked; an access token unexpired and of a grant that is not revoked
 * (a refresh token never is: it does not reach the API); a personal token until revoked.
 */
const LIVE = `t.revoked_at IS NULL
     AND (t.kind = 'personal'
          OR (t.kind = 'access' AND t.expires_at > now() AND (t.grant_id IS NULL OR g.revoked_at IS NULL)))`;

const SELECT_LIVE = `
  SELECT t.id::text AS id, t.token_hash, t.kind, t.user_id::text AS user_id, t.client_id, t.scope,
         t.grant_id::text AS grant_id, t.expires_at
    FROM oauth_tokens t LEFT JOIN oauth_grants g ON g.id = t.grant_id`;

interface LiveTokenRow {
  id: string;
  token_hash: string;
  kind: 'access' | 'personal';
  user_id: string;
  client_id: string | null;
  scope: string;
  grant_id: string | null;
  expires_at: Date | null;
}

/**
 * Live tokens, read by the auth service to restore Redis's introspection records at start-up and by the
 * API when Redis misses a token (after Redis restarted empty): both by the same rule, so they never disagree.
 */
export class LiveTokenRepository {
  constructor(private readonly source: DataSource) {}

  /** The live token of `tokenHash` (none when it is unknown, revoked or expired): an index lookup. */
  async find(tokenHash: string): Promise<LiveToken | undefined> {
    const rows: LiveTokenRow[] = await this.source.query(
      `${SELECT_LIVE} WHERE t.token_hash = $1 AND ${LIVE}`,
      [tokenHash],
    );
    return rows.length ? toLiveToken(rows[0]) : undefined;
  }

  /**
   * One page of every live token, in id order after `afterId` (keyset: each page is an index range scan, so
   * the restore holds one page in memory however many tokens are live). An empty page is the end.
   */
  async page(afterId: string | null, limit: number): Promise<LiveToken[]> {
    const rows: LiveTokenRow[] = await this.source.query(
      `${SELECT_LIVE} WHERE t.id > $1::bigint AND ${LIVE} ORDER BY t.id LIMIT $2`,
      [afterId ?? '0', limit],
    );
    return rows.map(toLiveToken);
  }
}

function toLiveToken(row: LiveTokenRow): LiveToken {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    kind: row.kind,
    userId: row.user_id,
    clientId: row.client_id,
    grantId: row.grant_id,
    scope: row.scope,
    expiresAt: row.expires_at,
  };
}
