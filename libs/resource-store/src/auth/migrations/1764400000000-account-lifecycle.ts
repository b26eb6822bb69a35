import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account lifecycle: when a user proved they read the mail of their address (`email_verified_at`;
 * accounts made before this release count as verified), and the single-use links sent by mail (email
 * verification, password reset), stored as the SHA-256 of a 256-bit random token.
 */
export class AccountLifecycle1764400000000 implements MigrationInterface {
  name = 'AccountLifecycle1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE auth_credentials ADD COLUMN email_verified_at timestamptz`);
    await queryRunner.query(`UPDATE auth_credentials SET email_verified_at = updated_at`);
    await queryRunner.query(`
      CREATE TABLE auth_email_tokens (
        token_hash text PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
        email text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX auth_email_tokens_user_idx ON auth_email_tokens (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth_email_tokens`);
    await queryRunner.query(`ALTER TABLE auth_credentials DROP COLUMN email_verified_at`);
  }
}
