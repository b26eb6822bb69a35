import { isResourceId } from '@pfs/contracts';
import { DataSource, IsNull } from 'typeorm';
import { OAuthTokenEntity, TokenKind } from '../entities';

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

/** TypeORM's postgres driver answers an UPDATE … RETURNING as `[rows, affectedCount]`. */
function returnedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);
}

export class TokenRepository {
  constructor(private readonly source: DataSource) {}

  private get repository() {
    return this.source.getRepository(OAuthTokenEntity);
  }

  /** Inserts tokens and returns their ids, in order. */
  async create(tokens: NewToken[]): Promise<string[]> {
    const result = await this.repository.insert(tokens);
    return result.identifiers.map((identifier) => String(identifier.id));
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

  /** Refresh rotation: the old token stops working, and remembers when, for reuse detection. */
  async markRotated(tokenHash: string): Promise<boolean> {
    const now = new Date();
    const result = await this.repository.update(
      { tokenHash, kind: 'refresh', revokedAt: IsNull() },
      { revokedAt: now, rotatedAt: now },
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
