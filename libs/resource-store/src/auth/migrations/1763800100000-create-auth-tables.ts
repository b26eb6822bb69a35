import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The auth service's private tables. Secrets (passwords, client secrets, codes, tokens) are stored only
 * as hashes: argon2id for passwords, SHA-256 for high-entropy random credentials.
 */
export class CreateAuthTables1763800100000 implements MigrationInterface {
  name = 'CreateAuthTables1763800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE auth_credentials (
        user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        password_hash text NOT NULL,
        otp_secret text,
        otp_enabled_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE oauth_clients (
        id text PRIMARY KEY,
        name text NOT NULL,
        secret_hash text NOT NULL,
        redirect_uri text NOT NULL,
        scope text NOT NULL,
        grants text[] NOT NULL,
        owner_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE oauth_grants (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
        scope text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id, client_id)`);
    await queryRunner.query(`
      CREATE TABLE oauth_authorization_codes (
        code_hash text PRIMARY KEY,
        grant_id bigint NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
        client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        scope text NOT NULL,
        redirect_uri text NOT NULL,
        redirect_uri_sent boolean NOT NULL,
        code_challenge text,
        code_challenge_method text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE oauth_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('access', 'refresh', 'personal')),
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        client_id text REFERENCES oauth_clients (id) ON DELETE CASCADE,
        grant_id bigint REFERENCES oauth_grants (id) ON DELETE CASCADE,
        authorization_code_hash text,
        name text,
        scope text NOT NULL,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id) WHERE grant_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX oauth_tokens_code_idx ON oauth_tokens (authorization_code_hash) WHERE authorization_code_hash IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX oauth_tokens_user_idx ON oauth_tokens (user_id, kind)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TABLE oauth_tokens, oauth_authorization_codes, oauth_grants, oauth_clients, auth_credentials`,
    );
  }
}
