import { accessTokenKey, grantTokensKey } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';
import type { DataSource, EntityManager } from 'typeorm';

export interface RevokeTokensDependencies {
  dataSource: DataSource;
  redis: Redis;
}

export interface RevokedTokens {
  revoked_tokens: number;
  revoked_grants: number;
}

/** TypeORM's postgres driver answers an UPDATE … RETURNING as `[rows, affectedCount]`. */
async function updateReturning<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const [rows] = (await manager.query(sql, params)) as [T[], number];
  return rows;
}

/**
 * Revokes the live tokens and grants matching `column = value` in Postgres, then deletes their introspection
 * records from Redis (tokens) and grant sets, so the API refuses them at once.
 */
export async function revokeTokens(
  deps: RevokeTokensDependencies,
  column: 'user_id' | 'client_id',
  value: string,
): Promise<RevokedTokens> {
  const revoked = await deps.dataSource.transaction(async (manager) => {
    const tokens = await updateReturning<{ token_hash: string }>(
      manager,
      `UPDATE oauth_tokens SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL RETURNING token_hash`,
      [value],
    );
    const grants = await updateReturning<{ id: string }>(
      manager,
      `UPDATE oauth_grants SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL RETURNING id::text`,
      [value],
    );
    return { tokenHashes: tokens.map((row) => row.token_hash), grantIds: grants.map((row) => row.id) };
  });
  const keys = [...revoked.tokenHashes.map(accessTokenKey), ...revoked.grantIds.map(grantTokensKey)];
  if (keys.length) await deps.redis.del(...keys);
  return { revoked_tokens: revoked.tokenHashes.length, revoked_grants: revoked.grantIds.length };
}
