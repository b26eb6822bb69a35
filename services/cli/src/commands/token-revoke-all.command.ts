import { accessTokenKey, grantTokensKey } from '@pfs/contracts';
import { closeRedis, openRedis } from '@pfs/redis';
import { parseArgs } from 'node:util';
import type { EntityManager } from 'typeorm';
import { CliConfig, CliUsageError } from '../cli-context';
import { TOKEN_REVOKE_ALL_USAGE } from '../usage';
import { withDataSource } from './with-data-source';

/**
 * `token:revoke-all --user ID`: every grant and token of the user (apps, personal tokens) is revoked in
 * Postgres, and the introspection records go from Redis, so the API refuses the tokens at once and a refresh
 * gives invalid_grant (the same effect as the auth service's revocation, for every application at once).
 */
/** TypeORM's postgres driver answers an UPDATE … RETURNING as `[rows, affectedCount]`. */
async function updateReturning<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const [rows] = (await manager.query(sql, params)) as [T[], number];
  return rows;
}

/**
 * Revokes the live tokens and grants matching `column = value` in Postgres, then deletes their introspection
 * records from Redis (tokens) and grant sets, so the API refuses them at once.
 */
export async function revokeTokensWhere(
  config: CliConfig,
  column: 'user_id' | 'client_id',
  value: string,
): Promise<{ revoked_tokens: number; revoked_grants: number }> {
  const revoked = await withDataSource(config, (dataSource) =>
    dataSource.transaction(async (manager) => {
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
    }),
  );
  const redis = await openRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  try {
    const keys = [...revoked.tokenHashes.map(accessTokenKey), ...revoked.grantIds.map(grantTokensKey)];
    if (keys.length) await redis.del(...keys);
  } finally {
    await closeRedis(redis);
  }
  return { revoked_tokens: revoked.tokenHashes.length, revoked_grants: revoked.grantIds.length };
}

export async function tokenRevokeAllCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
  if (!values.user || !/^\d{1,18}$/.test(values.user)) {
    throw new CliUsageError(`--user: must be a user id (see user:list): ${TOKEN_REVOKE_ALL_USAGE}`);
  }
  return { user_id: values.user, ...(await revokeTokensWhere(config, 'user_id', values.user)) };
}
