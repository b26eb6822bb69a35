import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statement imports (docs/imports.md). An import is a synced resource (the common columns and the
 * (user_id, change_seq, id) index) whose status the worker moves uploaded → parsing → parsed → importing →
 * imported, or to error with the line, field and reason. `import_keys` remembers what every import wrote
 * (an OFX FITID, else a fingerprint of account, date, amount and description with its occurrence in the
 * file), so the same statement imported twice writes nothing the second time.
 */
export class CreateImports1764200000000 implements MigrationInterface {
  name = 'CreateImports1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE imports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id bigint NOT NULL,
        format text,
        options jsonb NOT NULL DEFAULT '{}',
        dry_run boolean NOT NULL DEFAULT false,
        filename text,
        filesize bigint NOT NULL DEFAULT 0,
        storage_key text,
        status text NOT NULL DEFAULT 'uploaded'
          CHECK (status IN ('uploaded', 'parsing', 'parsed', 'importing', 'imported', 'error')),
        rows_total integer,
        rows_done integer NOT NULL DEFAULT 0,
        created_count integer NOT NULL DEFAULT 0,
        duplicate_count integer NOT NULL DEFAULT 0,
        error jsonb,
        result jsonb,
        started_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX imports_user_sync_idx ON imports (user_id, change_seq, id)`);
    await queryRunner.query(
      `CREATE INDEX imports_unfinished_idx ON imports (modified_at)
       WHERE status IN ('uploaded', 'parsing', 'parsed', 'importing') AND NOT deleted`,
    );
    await queryRunner.query(`
      CREATE TABLE import_keys (
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id bigint NOT NULL,
        key text NOT NULL,
        import_id bigint NOT NULL,
        entry_id bigint,
        PRIMARY KEY (user_id, account_id, key)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE import_keys`);
    await queryRunner.query(`DROP TABLE imports`);
  }
}
