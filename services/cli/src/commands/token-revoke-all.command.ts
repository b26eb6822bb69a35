import { isResourceId } from '@pfs/contracts';
import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { CliDependencies, withCliDependencies } from '../dependencies';
import { TOKEN_REVOKE_ALL_USAGE } from '../usage';
import { RevocationCounts, revokeTokens } from '../use-cases/revoke-tokens';

/** Revokes the tokens and grants of a user or a client, with the command's Redis (see revokeTokens). */
export async function revokeTokensOf(
  deps: CliDependencies,
  owner: { userId: string } | { clientId: string },
): Promise<RevocationCounts> {
  return revokeTokens({ repos: deps.repos, redis: await deps.redis() }, owner);
}

/**
 * `token:revoke-all --user ID`: every grant and token of the user (apps, personal tokens) is revoked in
 * Postgres, and the introspection records go from Redis, so the API refuses the tokens at once and a refresh
 * gives invalid_grant (the same effect as the auth service's revocation, for every application at once).
 */
export async function tokenRevokeAllCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
  if (!values.user || !isResourceId(values.user)) {
    throw new CliUsageError(`--user: must be a user id (see user:list): ${TOKEN_REVOKE_ALL_USAGE}`);
  }
  const userId = values.user;
  return withCliDependencies(config, async (deps) => ({
    user_id: userId,
    ...(await revokeTokensOf(deps, { userId })),
  }));
}
