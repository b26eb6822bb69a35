import { personalTokenUsedKey, userProfileGenerationKey, userProfileKey } from '@pfs/contracts';
import { deleteKeys, type Redis } from '@pfs/redis';
import type { ObjectStorage } from '@pfs/storage';
import type { CliRepositories } from '../dependencies';
import { revokeTokens } from './revoke-tokens';

export interface DeleteUserDependencies {
  repos: Pick<CliRepositories, 'userAccounts' | 'tokens' | 'clients'>;
  storage: ObjectStorage;
  redis: Redis;
}

export interface DeletedUser {
  user_id: string;
  email: string;
  deleted_files: number;
  deleted_clients: number;
  revoked_tokens: number;
}

/** Where the API and the worker store a user's files: `images/<id>/…` and `exports/<id>/…`. */
const USER_STORAGE_PREFIXES = (userId: string) => [`images/${userId}`, `exports/${userId}`];

/**
 * Deletes a user and everything of theirs; undefined when there is no such user. Order matters and makes a
 * rerun finish an interrupted deletion: tokens first (the API refuses them at once), then the files (while
 * the user row still lets a rerun find them), then the rows in one transaction, then the Redis caches.
 *
 * Every table with a `user_id` cascades from `users` (see the migrations); the one that does not is
 * `oauth_clients.owner_user_id` (SET NULL): the applications the user registered are deleted here with
 * their grants and tokens, revoked in Redis too.
 */
export async function deleteUser(
  deps: DeleteUserDependencies,
  idOrEmail: string,
): Promise<DeletedUser | undefined> {
  const user = await deps.repos.userAccounts.findByIdOrEmail(idOrEmail);
  if (!user) return undefined;
  const tokenIds = await deps.repos.tokens.listIdsOfUser(user.id);
  const revoked = await revokeTokens(deps, { userId: user.id });
  const clients = (await deps.repos.clients.listByOwner(user.id)).map((client) => client.id);
  for (const clientId of clients) await revokeTokens(deps, { clientId });

  let deletedFiles = 0;
  for (const prefix of USER_STORAGE_PREFIXES(user.id))
    deletedFiles += await deps.storage.deletePrefix(prefix);

  await deps.repos.userAccounts.deleteWithOwnedClients(user.id);
  // An export the worker was generating meanwhile may have written its file after the first pass; with the rows
  // gone nothing else would ever remove it.
  for (const prefix of USER_STORAGE_PREFIXES(user.id))
    deletedFiles += await deps.storage.deletePrefix(prefix);
  await deleteKeys(deps.redis, [
    userProfileKey(user.id),
    userProfileGenerationKey(user.id),
    ...tokenIds.map(personalTokenUsedKey),
  ]);
  return {
    user_id: user.id,
    email: user.email,
    deleted_files: deletedFiles,
    deleted_clients: clients.length,
    revoked_tokens: revoked.revoked_tokens,
  };
}
