import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { withDataSource } from './with-data-source';

function limitOf(raw: string | undefined): number {
  const limit = raw === undefined ? 100 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new CliUsageError(`--limit: must be an integer from 1 to 10000 (got ${JSON.stringify(raw)})`);
  }
  return limit;
}

/** `user:list`: users by id, with whether two-factor is on; never a hash or secret. */
export async function userListCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: { 'email-contains': { type: 'string' }, limit: { type: 'string' } },
    strict: true,
  });
  const limit = limitOf(values.limit);
  return withDataSource(config, (dataSource) =>
    dataSource.query(
      `SELECT u.id::text AS id, u.email, u.first_name, u.last_name, u.created_at AS joined,
              (c.otp_enabled_at IS NOT NULL) AS otp
         FROM users u LEFT JOIN auth_credentials c ON c.user_id = u.id
        WHERE $1::text IS NULL OR strpos(lower(u.email), lower($1)) > 0
        ORDER BY u.id LIMIT $2`,
      [values['email-contains'] ?? null, limit],
    ),
  );
}

/** `client:list`: registered applications; the secret exists only as a hash and is never shown. */
export async function clientListCommand(config: CliConfig, args: string[]): Promise<unknown> {
  parseArgs({ args, options: {}, strict: true });
  return withDataSource(config, (dataSource) =>
    dataSource.query(
      `SELECT id AS client_id, name, redirect_uri, scope, grants, created_at
         FROM oauth_clients ORDER BY created_at, id`,
    ),
  );
}
