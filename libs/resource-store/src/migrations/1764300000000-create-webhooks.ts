import { MigrationInterface, QueryRunner } from 'typeorm';

/** The synced tables whose writes become webhook events, with the object kind of their events. */
const OBJECT_TABLES = [
  ['entries', 'entry'],
  ['accounts', 'account'],
  ['budgets', 'budget'],
  ['categories', 'category'],
  ['tags', 'tag'],
] as const;

/**
 * Webhooks (docs/webhooks.md): `webhooks` (one per user and application, its URL, events and encrypted
 * signing secret), `webhook_events` (the outbox), `webhook_deliveries` (one per event and webhook, with the
 * payload as sent) and `webhook_attempts` (every HTTP attempt).
 *
 * Why triggers fill the outbox: a trigger runs inside the statement that writes the row, so the event
 * commits with the change or not at all (a rolled-back change leaves none, a committed one is never missed),
 * and every write path — single writes, batches, merges, cascades, imports — records its events without any
 * repository having to remember to. The triggers are statement-level with transition tables (one INSERT …
 * SELECT per statement, not one per row), and they write only for users with a live webhook subscribed to
 * the event, so users without webhooks pay one indexed probe per statement row and nothing else.
 */
export class CreateWebhooks1764300000000 implements MigrationInterface {
  name = 'CreateWebhooks1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhooks (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        app text NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        secret_encrypted text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`CREATE INDEX webhooks_user_idx ON webhooks (user_id, app)`);
    await queryRunner.query(`
      CREATE TABLE webhook_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL,
        object_id bigint NOT NULL,
        change_seq bigint,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        claimed_until timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        event_id bigint NOT NULL,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        runs integer NOT NULL DEFAULT 0,
        queued_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz,
        UNIQUE (webhook_id, event_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (webhook_id, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_unqueued_idx ON webhook_deliveries (id) WHERE queued_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE webhook_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        status_code integer,
        latency_ms integer NOT NULL,
        error text
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id)`,
    );
    await queryRunner.query(`
      CREATE FUNCTION webhook_record_object_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO webhook_events (user_id, type, object_id, change_seq)
          SELECT n.user_id, TG_ARGV[0] || '.created', n.id, n.change_seq FROM new_rows n
          WHERE NOT n.deleted AND EXISTS (SELECT 1 FROM webhooks w WHERE w.user_id = n.user_id AND w.enabled
            AND TG_ARGV[0] || '.created' = ANY (w.events))
          ORDER BY n.id;
        ELSE
          INSERT INTO webhook_events (user_id, type, object_id, change_seq)
          SELECT c.user_id, c.type, c.id, c.change_seq FROM (
            SELECT n.user_id, n.id, n.change_seq, TG_ARGV[0] || CASE
                WHEN n.deleted AND NOT o.deleted THEN '.deleted'
                WHEN o.deleted AND NOT n.deleted THEN '.created'
                ELSE '.updated' END AS type
            FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.change_seq IS DISTINCT FROM o.change_seq AND NOT (n.deleted AND o.deleted)) c
          WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.user_id = c.user_id AND w.enabled AND c.type = ANY (w.events))
          ORDER BY c.id;
        END IF;
        RETURN NULL;
      END $$`);
    for (const [table, kind] of OBJECT_TABLES) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_webhook_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION webhook_record_object_events('${kind}')`);
      await queryRunner.query(`
        CREATE TRIGGER ${table}_webhook_update AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION webhook_record_object_events('${kind}')`);
    }
    // export.generated: an export's status reaching `generated` (the worker wrote its file).
    await queryRunner.query(`
      CREATE FUNCTION webhook_record_export_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_events (user_id, type, object_id, change_seq)
        SELECT n.user_id, 'export.generated', n.id, n.change_seq
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.status = 'generated' AND o.status IS DISTINCT FROM 'generated'
          AND EXISTS (SELECT 1 FROM webhooks w WHERE w.user_id = n.user_id AND w.enabled
            AND 'export.generated' = ANY (w.events))
        ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER exports_webhook_update AFTER UPDATE ON exports
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_record_export_events()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER exports_webhook_update ON exports`);
    await queryRunner.query(`DROP FUNCTION webhook_record_export_events()`);
    for (const [table] of OBJECT_TABLES) {
      await queryRunner.query(`DROP TRIGGER ${table}_webhook_insert ON ${table}`);
      await queryRunner.query(`DROP TRIGGER ${table}_webhook_update ON ${table}`);
    }
    await queryRunner.query(`DROP FUNCTION webhook_record_object_events()`);
    await queryRunner.query(`DROP TABLE webhook_attempts, webhook_deliveries, webhook_events, webhooks`);
  }
}
