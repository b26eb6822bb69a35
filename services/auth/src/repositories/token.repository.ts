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
}

export type NewToken = Omit<TokenRecord, 'id' | 'revokedAt'>;

const toRecord = (entity: OAuthTokenEntity): TokenRecord => ({
  ...entity,
  id: String(entity.id),
  userId: String(entity.userId),
  grantId: entity.grantId === null ? null : String(entity.grantId),
});

export class TokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(tokens: NewToken[]): Promise<void> {
    await this.dataSource.getRepository(OAuthTokenEntity).insert(tokens);
  }

  async findActiveByHash(tokenHash: string, kind: TokenKind): Promise<TokenRecord | undefined> {
    const entity = await this.dataSource
      .getRepository(OAuthTokenEntity)
      .findOneBy({ tokenHash, kind, revokedAt: IsNull() });
    return entity ? toRecord(entity) : undefined;
  }

  /** Revokes every live token of a grant; returns their hashes so their introspection records can go too. */
  async revokeByGrant(grantId: string): Promise<string[]> {
    const rows: Array<{ token_hash: string }> = await this.dataSource.query(
      `UPDATE oauth_tokens SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL RETURNING token_hash`,
      [grantId],
    );
    return rows.map((row) => row.token_hash);
  }

  async revokeByHash(tokenHash: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(OAuthTokenEntity)
      .update({ tokenHash, revokedAt: IsNull() }, { revokedAt: new Date() });
    return (result.affected ?? 0) === 1;
  }
}
