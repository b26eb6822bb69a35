import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { withCliDependencies } from '../dependencies';

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
  const users = await withCliDependencies(config, (deps) =>
    deps.repos.userAccounts.list({ emailContains: values['email-contains'], limit }),
  );
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    joined: user.joined,
    otp: user.otp,
  }));
}

/** `client:list`: registered applications; the secret exists only as a hash and is never shown. */
export async function clientListCommand(config: CliConfig, args: string[]): Promise<unknown> {
  parseArgs({ args, options: {}, strict: true });
  const clients = await withCliDependencies(config, (deps) => deps.repos.clients.listAll());
  return clients.map((client) => ({
    client_id: client.id,
    name: client.name,
    redirect_uri: client.redirectUri,
    scope: client.scope,
    grants: client.grants,
    created_at: client.createdAt,
  }));
}
