import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'oauth_clients' })
export class OAuthClientEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** SHA-256 of the client secret, which is shown once at registration. */
  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  /** Every redirect URI of a dynamically registered client (RFC 7591); empty for the others. */
  @Column({ name: 'redirect_uris', type: 'text', array: true, default: () => "'{}'" })
  redirectUris!: string[];

  /** `none` for public clients registered dynamically (no secret, PKCE required); else client_secret_basic. */
  @Column({ name: 'token_endpoint_auth_method', type: 'text', default: 'client_secret_basic' })
  tokenEndpointAuthMethod!: string;

  @Column({ type: 'text' })
  scope!: string;

  /** Grant types the client may use: authorization_code, refresh_token, and implicit when registered for it. */
  @Column({ type: 'text', array: true })
  grants!: string[];

  @Column({ name: 'owner_user_id', type: 'bigint', nullable: true })
  ownerUserId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
