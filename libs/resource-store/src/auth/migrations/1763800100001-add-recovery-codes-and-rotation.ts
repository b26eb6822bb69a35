import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor recovery codes (hashed, single use), and the rotation instant of refresh tokens, which tells a
 * client's retry (within the grace period) from the reuse of a stolen token (which revokes the grant).
 * `auth_credentials.otp_secret` holds the AES-256-GCM ciphertext of the TOTP secret from now on.
 */
export class AddRecoveryCodesAndRotation1763800100001 implements MigrationInterface {
  name = 'AddRecoveryCodesAndRotation1763800100001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE auth_recovery_codes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash text NOT NULL UNIQUE,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX auth_recovery_codes_user_idx ON auth_recovery_codes (user_id)`);
    await queryRunner.query(`ALTER TABLE oauth_tokens ADD COLUMN rotated_at timestamptz`);
    await queryRunner.query(
      `CREATE INDEX oauth_tokens_live_idx ON oauth_tokens (kind, expires_at) WHERE revoked_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX oauth_tokens_live_idx`);
    await queryRunner.query(`ALTER TABLE oauth_tokens DROP COLUMN rotated_at`);
    await queryRunner.query(`DROP TABLE auth_recovery_codes`);
  }
}
