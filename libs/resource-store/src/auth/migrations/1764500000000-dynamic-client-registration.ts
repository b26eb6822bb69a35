import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dynamic Client Registration (RFC 7591) for assistants that connect over MCP: a client may hold several
 * redirect URIs (`redirect_uris`, empty for clients registered before, which keep their one `redirect_uri`),
 * and states how it authenticates at the token endpoint (`none` for public clients, which have no secret).
 */
export class DynamicClientRegistration1764500000000 implements MigrationInterface {
  name = 'DynamicClientRegistration1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE oauth_clients ADD COLUMN redirect_uris text[] NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(
      `ALTER TABLE oauth_clients ADD COLUMN token_endpoint_auth_method text NOT NULL DEFAULT 'client_secret_basic'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE oauth_clients DROP COLUMN token_endpoint_auth_method`);
    await queryRunner.query(`ALTER TABLE oauth_clients DROP COLUMN redirect_uris`);
  }
}
