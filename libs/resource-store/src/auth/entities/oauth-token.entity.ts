import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type TokenKind = 'access' | 'refresh' | 'personal';

@Entity({ name: 'oauth_tokens' })
export class OAuthTokenEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** SHA-256 of the token; the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text' })
  kind!: TokenKind;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @Column({ name: 'client_id', type: 'text', nullable: true })
  clientId!: string | null;

  @Column({ name: 'grant_id', type: 'bigint', nullable: true })
  grantId!: string | null;

  @Column({ name: 'authorization_code_hash', type: 'text', nullable: true })
  authorizationCodeHash!: string | null;

  /** A personal token's label. */
  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text' })
  scope!: string;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** Set (with revoked_at) when a refresh token is exchanged for a new pair. */
  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt!: Date | null;
}
