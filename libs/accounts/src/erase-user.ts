import {
  accessTokenKey,
  grantTokensKey,
  listVersionKey,
  personalTokenUsedKey,
  signalListVersionMoved,
  userProfileGenerationKey,
  userProfileKey,
  userRateLimitKeyPattern,
} from '@pfs/contracts';
import { deleteKeys, scanKeys, type Redis } from '@pfs/redis';
import type { ClientRepository, TokenRepository, UserAccountRepository } from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';
import { revokeAllAccess } from './close-account';

export interface EraseUserDependencies {
  repos: { userAccounts: UserAccountRepository; tokens: TokenRepository; clients: ClientRepository };
  storage: Pick<ObjectStorage, 'deletePrefix'>;
  redis: Redis;
}

export interface ErasedUser {
  user_id: string;
  email: string;
  deleted_files: number;
  deleted_clients: number;
  revoked_tokens: number;
}

/** Deletes the keys matching `pattern` under the client's key prefix (SCAN returns them prefixed). */
async function deleteMatching(redis: Redis, pattern: string): Promise<void> {
  const prefix = String(redis.options.keyPrefix ?? '');
  for await (const keys of scanKeys(redis, `${prefix}${pattern}`))
    await deleteKeys(
      redis,
      keys.map((key) => key.slice(prefix.length)),
    );
}

/** Where the API and the worker store a user's files: `images/<id>/…`, `exports/<id>/…` and `imports/<id>/…`. */
export const userStoragePrefixes = (userId: string) => [
  `images/${userId}`,
  `exports/${userId}`,
  `imports/${userId}`,
];

/**
 * Erases a user and everything of theirs; undefined when there is no such user (already erased). Used by the
 * account deletion job (worker) and by `user:delete` (CLI). Order matters and makes a rerun finish an
 * interrupted deletion: tokens and sessions first (the API refuses them at once), then the files (while the
 * user row still lets a rerun find them), then the rows in one transaction, then the files again and the
 * Redis caches.
 *
 * Every table with a `user_id` cascades from `users` (see the migrations); the one that does not is
 * `oauth_clients.owner_user_id` (SET NULL): the applications the user registered are deleted here with
 * their grants and tokens, revoked in Redis too.
 */
export async function eraseUser(
  deps: EraseUserDependencies,
  idOrEmail: string,
): Promise<ErasedUser | undefined> {
  const user = await deps.repos.userAccounts.findByIdOrEmail(idOrEmail);
  if (!user) return undefined;
  const tokenIds = await deps.repos.tokens.listIdsOfUser(user.id);
  const revoked = await revokeAllAccess(deps, user.id);
  const clients = (await deps.repos.clients.listByOwner(user.id)).map((client) => client.id);
  for (const clientId of clients) {
    const ofClient = await deps.repos.tokens.revokeAllOf({ clientId });
    const keys = [...ofClient.tokenHashes.map(accessTokenKey), ...ofClient.grantIds.map(grantTokensKey)];
    await deleteKeys(deps.redis, keys);
  }

  let deletedFiles = 0;
  for (const prefix of userStoragePrefixes(user.id)) deletedFiles += await deps.storage.deletePrefix(prefix);

  await deps.repos.userAccounts.deleteWithOwnedClients(user.id);
  // An export the worker was generating meanwhile may have written its file after the first pass; with the rows
  // gone nothing else would ever remove it.
  for (const prefix of userStoragePrefixes(user.id)) deletedFiles += await deps.storage.deletePrefix(prefix);
  // Its tokens are revoked already; the signal also drops every API process's held list version of the user
  // (its key is set, so that deleting it below is seen too, and then gone with the rest).
  await signalListVersionMoved(deps.redis, user.id, (error) => {
    throw error;
  });
  await deps.redis.del(
    userProfileKey(user.id),
    userProfileGenerationKey(user.id),
    listVersionKey(user.id),
    ...tokenIds.map(personalTokenUsedKey),
  );
  await deleteMatching(deps.redis, userRateLimitKeyPattern(user.id));
  return {
    user_id: user.id,
    email: user.email,
    deleted_files: deletedFiles,
    deleted_clients: clients.length,
    revoked_tokens: revoked.tokens,
  };
}
