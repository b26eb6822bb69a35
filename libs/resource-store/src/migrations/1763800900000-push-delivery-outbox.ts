import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pushes are sent to the providers (APNs, FCM, WNS): `push_deliveries` becomes their outbox. Each row is
 * pending until a provider accepts it (sent), refuses it for good (failed), or no provider is configured for
 * its device type (skipped); a temporary refusal is retried at `next_attempt_at`. A device token a provider
 * says is dead is marked `invalid_at` and gets no more pushes until the app registers it again.
 */
export class PushDeliveryOutbox1763800900000 implements MigrationInterface {
  name = 'PushDeliveryOutbox1763800900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE push_deliveries
        ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN last_error text,
        ADD COLUMN sent_at timestamptz`);
    // Pushes recorded before delivery existed are history (their exports may be long gone): never send them.
    await queryRunner.query(
      `UPDATE push_deliveries SET status = 'skipped', last_error = 'recorded before push delivery existed'`,
    );
    await queryRunner.query(
      `CREATE INDEX push_deliveries_due_idx ON push_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await queryRunner.query(`ALTER TABLE push_tokens ADD COLUMN invalid_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE push_tokens DROP COLUMN invalid_at`);
    await queryRunner.query(`DROP INDEX push_deliveries_due_idx`);
    await queryRunner.query(`
      ALTER TABLE push_deliveries DROP COLUMN status, DROP COLUMN attempts, DROP COLUMN next_attempt_at,
        DROP COLUMN last_error, DROP COLUMN sent_at`);
  }
}
