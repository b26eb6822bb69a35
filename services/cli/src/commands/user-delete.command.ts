import { defineConfig, Env, publicUrlShape, storageShape } from '@pfs/config';
import { createStorage } from '@pfs/storage';
import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { USER_DELETE_USAGE } from '../usage';
import { eraseUser } from '@pfs/accounts';
import { withCliDependencies } from '../dependencies';

/**
 * `user:delete --user ID|EMAIL --yes`: the user, every row and stored file of theirs, and their tokens,
 * for good (see eraseUser in @pfs/accounts). The storage variables are read only here: no other command needs them.
 */
export async function userDeleteCommand(config: CliConfig, args: string[], env: Env): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: { user: { type: 'string' }, yes: { type: 'boolean' } },
    strict: true,
  });
  if (!values.user) throw new CliUsageError(`--user is required (an id or an email): ${USER_DELETE_USAGE}`);
  if (!values.yes) {
    throw new CliUsageError(
      `--yes is required: user:delete removes the user, their data and files for good: ${USER_DELETE_USAGE}`,
    );
  }
  const storage = createStorage(defineConfig({ ...storageShape, ...publicUrlShape }, env));
  const deleted = await withCliDependencies(config, async (deps) =>
    eraseUser({ repos: deps.repos, storage, redis: await deps.redis() }, values.user!),
  );
  if (!deleted) throw new CliUsageError(`--user: no user ${values.user} (see user:list)`);
  return { ...deleted, deleted: true };
}
