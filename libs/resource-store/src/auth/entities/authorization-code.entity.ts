import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'oauth_authorization_codes' })
export class AuthorizationCodeEntity {
  @PrimaryColumn({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  @Column({ name: 'grant_id', type: 'bigint' })
  grantId!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @Column({ type: 'text' })
  scope!: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  /** Whether the authorize request named the redirect URI: then the token request must repeat it. */
  @Column({ name: 'redirect_uri_sent', type: 'boolean' })
  redirectUriSent!: boolean;

  @Column({ name: 'code_challenge', type: 'text', nullable: true })
  codeChallenge!: string | null;

  @Column({ name: 'code_challenge_method', type: 'text', nullable: true })
  codeChallengeMethod!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** Set on first exchange; a second use is detected by it and revokes the grant's tokens. */
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
