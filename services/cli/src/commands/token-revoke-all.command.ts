import { closeRedis, openRedis } from '@pfs/redis';
import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { TOKEN_REVOKE_ALL_USAGE } from '../usage';
import { RevokedTokens, revokeTokens } from '../use-cases/revoke-tokens';
import { withDataSource } from './with-data-source';

/**
 * Revokes the tokens and grants matching `column = value` with a database and Redis opened for this one
 * command (see revokeTokens).
 */
export async function revokeTokensWhere(
  config: CliConfig,
  column: 'user_id' | 'client_id',
  value: string,
): Promise<RevokedTokens> {
  const redis = await openRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  try {
    return await withDataSource(config, (dataSource) => revokeTokens({ dataSource, redis }, column, value));
  } finally {
    await closeRedis(redis);
  }
}

/**
 * `token:revoke-all --user ID`: every grant and token of the user (apps, personal tokens) is revoked in
 * Postgres, and the introspection records go from Redis, so the API refuses the tokens at once and a refresh
 * gives invalid_grant (the same effect as the auth service's revocation, for every application at once).
 */
export async function tokenRevokeAllCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
  if (!values.user || !/^\d{1,18}$/.test(values.user)) {
    throw new CliUsageError(`--user: must be a user id (see user:list): ${TOKEN_REVOKE_ALL_USAGE}`);
  }
  return { user_id: values.user, ...(await revokeTokensWhere(config, 'user_id', values.user)) };
}
