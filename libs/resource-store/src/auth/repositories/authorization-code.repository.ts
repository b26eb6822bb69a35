import { DataSource } from 'typeorm';
import { AuthorizationCodeEntity } from '../entities';

export type AuthorizationCodeRecord = Omit<AuthorizationCodeEntity, 'createdAt'>;

/**
 * What the code exchange needs of a code, in one read: the code, whether its grant is live, and its user's
 * second-factor state (the secret is still encrypted).
 */
export interface CodeExchangeState {
  code: AuthorizationCodeRecord;
  grantActive: boolean;
  otpSecret: string | null;
  otpEnabledAt: Date | null;
}

export interface CodeExchangeRow {
  code_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  scope: string;
  redirect_uri: string;
  redirect_uri_sent: boolean;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: Date;
  used_at: Date | null;
  grant_active: boolean;
  otp_secret: string | null;
  otp_enabled_at: Date | null;
}

/**
 * The select list of a code's exchange state (`CodeExchangeRow`), each column named `<prefix><name>`, over
 * `CODE_EXCHANGE_FROM` (ids as text: bigint stays exact).
 */
export const codeExchangeColumns = (prefix = '') =>
  [
    ['c.code_hash', 'code_hash'],
    ['c.grant_id::text', 'grant_id'],
    ['c.client_id', 'client_id'],
    ['c.user_id::text', 'user_id'],
    ['c.scope', 'scope'],
    ['c.redirect_uri', 'redirect_uri'],
    ['c.redirect_uri_sent', 'redirect_uri_sent'],
    ['c.code_challenge', 'code_challenge'],
    ['c.code_challenge_method', 'code_challenge_method'],
    ['c.expires_at', 'expires_at'],
    ['c.used_at', 'used_at'],
    ['(g.id IS NOT NULL AND g.revoked_at IS NULL)', 'grant_active'],
    ['a.otp_secret', 'otp_secret'],
    ['a.otp_enabled_at', 'otp_enabled_at'],
  ]
    .map(([expression, name]) => `${expression} AS ${prefix}${name}`)
    .join(', ');

/** The code (`c`), its grant (`g`) and its user's credential (`a`). */
export const CODE_EXCHANGE_FROM = `oauth_authorization_codes c
  LEFT JOIN oauth_grants g ON g.id = c.grant_id
  LEFT JOIN auth_credentials a ON a.user_id = c.user_id`;

export const codeExchangeStateOf = (row: CodeExchangeRow): CodeExchangeState => ({
  code: {
    codeHash: row.code_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    userId: row.user_id,
    scope: row.scope,
    redirectUri: row.redirect_uri,
    redirectUriSent: row.redirect_uri_sent,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  },
  grantActive: row.grant_active,
  otpSecret: row.otp_secret,
  otpEnabledAt: row.otp_enabled_at,
});

export class AuthorizationCodeRepository {
  constructor(private readonly source: DataSource) {}

  async create(code: Omit<AuthorizationCodeRecord, 'usedAt'>): Promise<void> {
    await this.source.getRepository(AuthorizationCodeEntity).insert({ ...code, usedAt: null });
  }

  async findByHash(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const entity = await this.source.getRepository(AuthorizationCodeEntity).findOneBy({ codeHash });
    return entity ? { ...entity, grantId: String(entity.grantId), userId: String(entity.userId) } : undefined;
  }

  /** The code with its grant's and its user's state (see CodeExchangeState), or undefined. */
  async findForExchange(codeHash: string): Promise<CodeExchangeState | undefined> {
    const rows: CodeExchangeRow[] = await this.source.query(
      `SELECT ${codeExchangeColumns()} FROM ${CODE_EXCHANGE_FROM} WHERE c.code_hash = $1`,
      [codeHash],
    );
    return rows[0] ? codeExchangeStateOf(rows[0]) : undefined;
  }

  /** Marks the code used; false when it already was (a concurrent or repeated exchange). */
  async markUsed(codeHash: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.source.query(
      'UPDATE oauth_authorization_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL',
      [codeHash, new Date()],
    );
    return affected === 1;
  }
}
