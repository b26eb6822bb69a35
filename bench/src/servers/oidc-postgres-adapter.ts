import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Pool } from 'pg';

/**
 * One table for every model, as the library's Postgres examples (knex, Prisma, Sequelize) and the deployments
 * built on them keep it: the payload as jsonb, and beside it the columns the adapter looks rows up by (the grant,
 * the device flow's user code, the interaction's uid), the expiry and the consumption time. The indexes are the
 * ones those lookups need (partial: most models have no user code or uid); none on `expires_at`, which only a
 * periodic clean-up reads and which would cost every insert an index entry.
 */
export const OIDC_MODEL_SCHEMA = `
CREATE TABLE IF NOT EXISTS oidc_model (
  id text NOT NULL,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (id, kind)
);
CREATE INDEX IF NOT EXISTS oidc_model_grant_id ON oidc_model (grant_id) WHERE grant_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS oidc_model_user_code ON oidc_model (user_code) WHERE user_code IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS oidc_model_uid ON oidc_model (uid) WHERE uid IS NOT NULL;
`;

const LIVE = '(expires_at IS NULL OR expires_at > now())';

/**
 * Every statement is named, so each pooled connection parses and plans it once: the cheapest way pg offers to run
 * a few hot statements (the library's knex and Prisma examples do not; PFS's auth service prepares its grant
 * statements the same way), so the peer is not handicapped by re-planning.
 */
const STATEMENTS = {
  upsert: `INSERT INTO oidc_model (id, kind, payload, grant_id, user_code, uid, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (id, kind) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
      user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
  find: `SELECT payload, consumed_at IS NOT NULL AS consumed FROM oidc_model
    WHERE id = $1 AND kind = $2 AND ${LIVE}`,
  findByUid: `SELECT payload, consumed_at IS NOT NULL AS consumed FROM oidc_model
    WHERE uid = $1 AND kind = $2 AND ${LIVE}`,
  findByUserCode: `SELECT payload, consumed_at IS NOT NULL AS consumed FROM oidc_model
    WHERE user_code = $1 AND kind = $2 AND ${LIVE}`,
  consume: `UPDATE oidc_model SET consumed_at = now() WHERE id = $1 AND kind = $2`,
  destroy: `DELETE FROM oidc_model WHERE id = $1 AND kind = $2`,
  revokeByGrantId: `DELETE FROM oidc_model WHERE grant_id = $1 AND kind = $2`,
} as const;

interface ModelRow {
  payload: AdapterPayload;
  consumed: boolean;
}

/**
 * oidc-provider's storage in Postgres (the library's adapter interface: one instance per model name), with a
 * pg pool: the peer of PFS that stores its grants durably in Postgres, as PFS does.
 */
export class OidcPostgresAdapter implements Adapter {
  constructor(
    private readonly pool: Pool,
    private readonly name: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.run('upsert', [
      id,
      this.name,
      JSON.stringify(payload),
      payload.grantId ?? null,
      payload.userCode ?? null,
      payload.uid ?? null,
      expiresAt,
    ]);
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.one('find', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.one('findByUid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.one('findByUserCode', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.run('consume', [id, this.name]);
  }

  async destroy(id: string): Promise<void> {
    await this.run('destroy', [id, this.name]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.run('revokeByGrantId', [grantId, this.name]);
  }

  private async one(statement: keyof typeof STATEMENTS, key: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.run(statement, [key, this.name]);
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed ? { ...row.payload, consumed: true } : row.payload;
  }

  private run(statement: keyof typeof STATEMENTS, values: unknown[]) {
    return this.pool.query<ModelRow>({ name: `oidc_${statement}`, text: STATEMENTS[statement], values });
  }
}
