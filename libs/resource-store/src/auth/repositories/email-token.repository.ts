import type { DataSource } from 'typeorm';

/** What a link mailed to a user does. */
export type EmailTokenPurpose = 'verify-email' | 'reset-password';

/** The user and address a consumed link was sent for. */
export interface EmailTokenOwner {
  userId: string;
  email: string;
}

/**
 * The single-use links sent by mail, stored as the SHA-256 of their random token (never the token). A link
 * works once and only until it expires: `consume` claims it in one UPDATE, so two clicks cannot both win.
 */
export class EmailTokenRepository {
  constructor(private readonly source: DataSource) {}

  async issue(token: {
    tokenHash: string;
    userId: string;
    purpose: EmailTokenPurpose;
    email: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.source.query(
      `INSERT INTO auth_email_tokens (token_hash, user_id, purpose, email, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [token.tokenHash, token.userId, token.purpose, token.email, token.expiresAt],
    );
  }

  /** The owner of a live, unused link for this purpose, without using it up (the reset form's first view). */
  async peek(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailTokenOwner | undefined> {
    const rows: Array<{ user_id: string; email: string }> = await this.source.query(
      `SELECT user_id::text, email FROM auth_email_tokens
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`,
      [tokenHash, purpose],
    );
    return rows[0] ? { userId: rows[0].user_id, email: rows[0].email } : undefined;
  }

  /** Uses the link up; undefined when it is unknown, used, expired or for another purpose. */
  async consume(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailTokenOwner | undefined> {
    const result: unknown = await this.source.query(
      `UPDATE auth_email_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id::text, email`,
      [tokenHash, purpose],
    );
    // TypeORM's postgres driver answers an UPDATE … RETURNING as `[rows, affectedCount]`.
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{
      user_id: string;
      email: string;
    }>;
    return rows[0] ? { userId: rows[0].user_id, email: rows[0].email } : undefined;
  }

  /** Every other live link of the user for this purpose stops working (after a reset, one link ends all). */
  async expireAll(userId: string, purpose: EmailTokenPurpose): Promise<void> {
    await this.source.query(
      `UPDATE auth_email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
      [userId, purpose],
    );
  }
}
