import { MigrationInterface, QueryRunner } from 'typeorm';

/** The user's profile, shared by the API (`/me`) and the auth service (which keeps credentials apart). */
export class CreateUsers1763800000000 implements MigrationInterface {
  name = 'CreateUsers1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        first_name text,
        last_name text,
        currency char(3) NOT NULL DEFAULT 'EUR',
        start_day smallint NOT NULL DEFAULT 1 CHECK (start_day BETWEEN 1 AND 31),
        locale text,
        timezone text,
        country char(2),
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE users`);
  }
}
