import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exports, the notifications a finished export leaves, and device push tokens. Exports and notifications
 * have the columns of every synced resource (docs/conventions.md): user_id, created_at, modified_at,
 * change_seq (the user's sequence in user_sync_state at the write), deleted, and the (user_id, change_seq, id)
 * index serving list pages and `since` sync.
 * The export's file fields are filled by the worker as it moves the status
 * generating → generated → sending → sent (or error, with a reason the user can read).
 */
export class CreateExportsNotificationsPush1763800400000 implements MigrationInterface {
  name = 'CreateExportsNotificationsPush1763800400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE exports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('export', 'attachments', 'user_data')),
        resources text[] NOT NULL DEFAULT '{}',
        formats text[] NOT NULL DEFAULT '{}',
        filters jsonb,
        from_date date,
        to_date date,
        status text NOT NULL DEFAULT 'generating'
          CHECK (status IN ('generating', 'generated', 'sending', 'sent', 'error')),
        error_reason text,
        seen boolean NOT NULL DEFAULT false,
        storage_key text,
        filename text,
        filesize bigint,
        content_type text,
        download_url text,
        valid_until timestamptz,
        generated_at timestamptz,
        -- After this the file is removed by the cleanup job.
        expires_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX exports_user_sync_idx ON exports (user_id, change_seq, id)`);
    await queryRunner.query(
      `CREATE INDEX exports_expiry_idx ON exports (expires_at) WHERE storage_key IS NOT NULL AND NOT deleted`,
    );
    await queryRunner.query(`
      CREATE TABLE notifications (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL,
        action text,
        text text NOT NULL,
        export_id bigint REFERENCES exports (id) ON DELETE SET NULL,
        date timestamptz NOT NULL DEFAULT now(),
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(
      `CREATE INDEX notifications_user_sync_idx ON notifications (user_id, change_seq, id)`,
    );
    // One notification per export, so a retried "sending" step never notifies twice.
    await queryRunner.query(
      `CREATE UNIQUE INDEX notifications_export_key ON notifications (export_id) WHERE export_id IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE push_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        client_id text,
        type text NOT NULL CHECK (type IN ('apple', 'apple_fcm', 'google', 'windows')),
        token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX push_tokens_device_key ON push_tokens (user_id, type, token)`,
    );
    // What a push would carry: no push provider is called; each delivery is recorded here (docs/exports.md).
    await queryRunner.query(`
      CREATE TABLE push_deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        push_token_id bigint NOT NULL REFERENCES push_tokens (id) ON DELETE CASCADE,
        notification_id bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (push_token_id, notification_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE push_deliveries`);
    await queryRunner.query(`DROP TABLE push_tokens`);
    await queryRunner.query(`DROP TABLE notifications`);
    await queryRunner.query(`DROP TABLE exports`);
  }
}
