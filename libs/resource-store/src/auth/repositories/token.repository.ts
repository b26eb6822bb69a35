import { isResourceId } from '@pfs/contracts';
import { DataSource, IsNull } from 'typeorm';
import { OAuthTokenEntity, TokenKind } from '../entities';
import { preparedQuery } from '../../prepared-query';
import { ROTATE_PAIR, RotatedPair } from './token-rotation';
import { CodeExchangeTokens, CREATE_FOR_CODE, createForCodeValues } from './code-exchange-tokens';

export interface TokenRecord {
  id: string;
  tokenHash: string;
  kind: TokenKind;
  userId: string;
  clientId: string | null;
  grantId: string | null;
  authorizationCodeHash: string | null;
  name: string | null;
  scope: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rotatedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What `revokeAllOf` ended. */
export interface RevokedTokens {
  tokenHashes: string[];
  grantIds: string[];
}

export type NewToken = Omit<TokenRecord, 'id' | 'revokedAt' | 'rotatedAt' | 'createdAt' | 'lastUsedAt'>;

const toRecord = (entity: OAuthTokenEntity): TokenRecord => ({
  ...entity,
  id: String(entity.id),
  userId: String(entity.userId),
  grantId: entity.grantId === null ? null : String(entity.grantId),
});

/** A refresh token with whether its grant is still live (the refresh grant's one read). */
export type RefreshTokenState = TokenRecord & { grantActive: boolean };

/**
 * The select list of a refresh token's state (`RefreshTokenRow`: the token `t` and whether its grant `g` is
 * live), each column named `<prefix><name>`, over `REFRESH_STATE_FROM` (ids as text: bigint stays exact).
 */
export const refreshStateColumns = (prefix = '') =>
  [
    ['t.id::text', 'id'],
    ['t.token_hash', 'token_hash'],
    ['t.kind', 'kind'],
    ['t.user_id::text', 'user_id'],
    ['t.client_id', 'client_id'],
    ['t.grant_id::text', 'grant_id'],
    ['t.authorization_code_hash', 'authorization_code_hash'],
    ['t.name', 'name'],
    ['t.scope', 'scope'],
    ['t.expires_at', 'expires_at'],
    ['t.revoked_at', 'revoked_at'],
    ['t.rotated_at', 'rotated_at'],
    ['t.created_at', 'created_at'],
    ['t.last_used_at', 'last_used_at'],
    ['(g.id IS NOT NULL AND g.revoked_at IS NULL)', 'grant_active'],
  ]
    .map(([expression, name]) => `${expression} AS ${prefix}${name}`)
    .join(', ');

export const REFRESH_STATE_FROM = 'oauth_tokens t LEFT JOIN oauth_grants g ON g.id = t.grant_id';

export type RefreshTokenRow = TokenRow & { grant_active: boolean };

export const refreshStateOf = (row: RefreshTokenRow): RefreshTokenState => ({
  ...rowToRecord(row),
  grantActive: row.grant_active,
});

interface TokenRow {
  id: string;
  token_hash: string;
  kind: TokenKind;
  user_id: string;
  client_id: string | null;
  grant_id: string | null;
  authorization_code_hash: string | null;
  name: string | null;
  scope: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  rotated_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

const rowToRecord = (row: TokenRow): TokenRecord => ({
  id: row.id,
  tokenHash: row.token_hash,
  kind: row.kind,
  userId: row.user_id,
  clientId: row.client_id,
  grantId: row.grant_id,
  authorizationCodeHash: row.authorization_code_hash,
  name: row.name,
  scope: row.scope,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  rotatedAt: row.rotated_at,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

const NEW_TOKEN_TYPES = ['text', 'text', 'bigint', 'text', 'bigint', 'text', 'text', 'text', 'timestamptz'];

/**
 * `INSERT … SELECT` of new tokens from one parameter array per column (`unnest`: one statement and one
 * parameter list whatever the number of tokens), numbered from `$first`. Built once per statement: a text built
 * per call is a new string that the statement-name lookup hashes again on every grant.
 */
const insertNewTokens = (first: number) => `INSERT INTO oauth_tokens
      (token_hash, kind, user_id, client_id, grant_id, authorization_code_hash, name, scope, expires_at)
    SELECT * FROM unnest(${NEW_TOKEN_TYPES.map((type, index) => `$${first + index}::${type}[]`).join(', ')})`;

/** `insertNewTokens`'s parameters: one array per column. */
const newTokenColumns = (tokens: NewToken[]) => [
  tokens.map((token) => token.tokenHash),
  tokens.map((token) => token.kind),
  tokens.map((token) => token.userId),
  tokens.map((token) => token.clientId),
  tokens.map((token) => token.grantId),
  tokens.map((token) => token.authorizationCodeHash),
  tokens.map((token) => token.name),
  tokens.map((token) => token.scope),
  tokens.map((token) => token.expiresAt),
];

const CREATE = `${insertNewTokens(1)} RETURNING id::text AS id`;

/** TypeORM's postgres driver answers an UPDATE … RETURNING as `[rows, affectedCount]`. */
function returnedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);
}

export class TokenRepository {
  constructor(private readonly source: DataSource) {}

  private get repository() {
    return this.source.getRepository(OAuthTokenEntity);
  }

  /** Inserts tokens (one statement) and returns their ids, in order. */
  async create(tokens: NewToken[]): Promise<string[]> {
    const rows = await preparedQuery<{ id: string }>(this.source, CREATE, newTokenColumns(tokens));
    return rows.map((row) => row.id);
  }

  /**
   * Refresh rotation and the new pair in one statement: retires the refresh token `rotatedHash` if it is still
   * live (revoked_at and rotated_at set to `now`: reuse detection reads them) and inserts the pair.
   *
   * The token is found by its hash alone (unique over every kind; the caller's hash is of a token it read as a
   * refresh token). With `kind = 'refresh'` in the condition as well, Postgres without statistics on the table
   * (a new or bulk-grown table before ANALYZE; autovacuum off) planned the update on the live-token index
   * `(kind, expires_at) WHERE revoked_at IS NULL`, reading every live refresh token: 14 ms at 6,300 of them
   * against 0.3 ms by the hash's unique index, and 3.3 ms of backend CPU a refresh in the bench (docs/bench.md).
   */
  async rotatePair(rotatedHash: string, now: Date, pair: RotatedPair): Promise<void> {
    const { userId, clientId, grantId, scope, accessHash, accessExpiresAt, refreshHash } = pair;
    await preparedQuery(this.source, ROTATE_PAIR, [
      rotatedHash,
      now,
      accessHash,
      refreshHash,
      userId,
      clientId,
      grantId,
      scope,
      accessExpiresAt,
    ]);
  }

  /**
   * A code exchange's tokens and the code's use in one statement: marks the code `codeHash` used if it is not yet
   * and inserts the tokens only then. False when the code was used already (a concurrent exchange of the same code
   * marked it first: its row lock decides), and then nothing is inserted.
   */
  async createForCode(codeHash: string, now: Date, tokens: CodeExchangeTokens): Promise<boolean> {
    const rows = await preparedQuery(
      this.source,
      CREATE_FOR_CODE,
      createForCodeValues(codeHash, now, tokens),
    );
    return rows.length > 0;
  }

  /** A refresh token (revoked ones too, for reuse detection) and whether its grant is live: one indexed read. */
  async findRefreshWithGrant(tokenHash: string): Promise<RefreshTokenState | undefined> {
    const rows = await preparedQuery<RefreshTokenRow>(
      this.source,
      `SELECT ${refreshStateColumns()} FROM ${REFRESH_STATE_FROM} WHERE t.token_hash = $1 AND t.kind = 'refresh'`,
      [tokenHash],
    );
    return rows[0] ? refreshStateOf(rows[0]) : undefined;
  }

  async findActiveByHash(tokenHash: string, kind: TokenKind): Promise<TokenRecord | undefined> {
    const entity = await this.repository.findOneBy({ tokenHash, kind, revokedAt: IsNull() });
    return entity ? toRecord(entity) : undefined;
  }

  /** Also finds revoked tokens: reuse detection needs to know a rotated refresh token when it comes back. */
  async findByHash(tokenHash: string, kind: TokenKind): Promise<TokenRecord | undefined> {
    const entity = await this.repository.findOneBy({ tokenHash, kind });
    return entity ? toRecord(entity) : undefined;
  }

  /** Revokes every live token of a grant; returns their hashes so their introspection records can go too. */
  async revokeByGrant(grantId: string): Promise<string[]> {
    const result = await this.source.query(
      `UPDATE oauth_tokens SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL RETURNING token_hash`,
      [grantId],
    );
    return returnedRows<{ token_hash: string }>(result).map((row) => row.token_hash);
  }

  /** The grants of every token issued from one authorization code (for code-reuse revocation). */
  async findGrantIdsByCode(codeHash: string): Promise<string[]> {
    const rows: Array<{ grant_id: string }> = await this.source.query(
      `SELECT DISTINCT grant_id FROM oauth_tokens WHERE authorization_code_hash = $1 AND grant_id IS NOT NULL`,
      [codeHash],
    );
    return rows.map((row) => String(row.grant_id));
  }

  async revokeByHash(tokenHash: string): Promise<boolean> {
    const result = await this.repository.update(
      { tokenHash, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return (result.affected ?? 0) === 1;
  }

  async listPersonal(userId: string): Promise<TokenRecord[]> {
    const entities = await this.repository.find({
      where: { userId, kind: 'personal', revokedAt: IsNull() },
      order: { createdAt: 'DESC' },
    });
    return entities.map(toRecord);
  }

  /** Revokes one personal token of this user; undefined when there is none (another user's id included). */
  async revokePersonal(userId: string, id: string): Promise<string | undefined> {
    if (!isResourceId(id)) return undefined;
    const result = await this.source.query(
      `UPDATE oauth_tokens SET revoked_at = now()
        WHERE id = $1 AND user_id = $2 AND kind = 'personal' AND revoked_at IS NULL RETURNING token_hash`,
      [id, userId],
    );
    return returnedRows<{ token_hash: string }>(result)[0]?.token_hash;
  }

  /** Ids of every token of the user, revoked ones included (their Redis "last used" stamps go on deletion). */
  async listIdsOfUser(userId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.source.query(
      'SELECT id::text FROM oauth_tokens WHERE user_id = $1',
      [userId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Revokes, in one transaction, every live token and grant of a user or of a client (sign-out everywhere,
   * a deleted application); returns the token hashes and grant ids, whose Redis records must go too.
   */
  async revokeAllOf(owner: { userId: string } | { clientId: string }): Promise<RevokedTokens> {
    const [column, value] = 'userId' in owner ? ['user_id', owner.userId] : ['client_id', owner.clientId];
    return this.source.transaction(async (manager) => {
      const tokens = await manager.query(
        `UPDATE oauth_tokens SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL RETURNING token_hash`,
        [value],
      );
      const grants = await manager.query(
        `UPDATE oauth_grants SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL RETURNING id::text`,
        [value],
      );
      return {
        tokenHashes: returnedRows<{ token_hash: string }>(tokens).map((row) => row.token_hash),
        grantIds: returnedRows<{ id: string }>(grants).map((row) => row.id),
      };
    });
  }
}
