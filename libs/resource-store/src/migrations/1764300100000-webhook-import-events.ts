import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * import.imported (docs/webhooks.md): an import's status reaching `imported` writes the webhook outbox in the
 * same statement, as the triggers of 1764300000000 do for the other events (only for users with a live
 * webhook subscribed to it).
 */
export class WebhookImportEvents1764300100000 implements MigrationInterface {
  name = 'WebhookImportEvents1764300100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION webhook_record_import_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_events (user_id, type, object_id, change_seq)
        SELECT n.user_id, 'import.imported', n.id, n.change_seq
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.status = 'imported' AND o.status IS DISTINCT FROM 'imported'
          AND EXISTS (SELECT 1 FROM webhooks w WHERE w.user_id = n.user_id AND w.enabled
            AND 'import.imported' = ANY (w.events))
        ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER imports_webhook_update AFTER UPDATE ON imports
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_record_import_events()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER imports_webhook_update ON imports`);
    await queryRunner.query(`DROP FUNCTION webhook_record_import_events()`);
  }
}
