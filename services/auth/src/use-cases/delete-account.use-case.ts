import { closeAccount } from '@pfs/accounts';
import type { AccountDeletionQueue, ExportJobQueue } from '@pfs/jobs';
import type { TraceContext } from '@pfs/logger';
import type { Redis } from '@pfs/redis';
import type { ExportRecord, ExportRepository, UserStore } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';

export interface DeleteAccountDependencies {
  repos: Pick<AuthRepositories, 'tokens' | 'credentials'>;
  redis: Redis;
  accountDeletions: AccountDeletionQueue;
}

/**
 * Deletes an account whose owner was re-checked: the deletion job is queued first (so a Redis outage
 * refuses the request and changes nothing), then the account closes at once (every token and session ends,
 * the password goes); the job erases the rest and is retried until it completes.
 */
export async function deleteAccount(deps: DeleteAccountDependencies, userId: string): Promise<void> {
  await deps.accountDeletions.request(userId);
  await closeAccount(deps, userId);
}

export interface UserDataExportDependencies {
  store: UserStore;
  exports: ExportRepository;
  exportJobs: ExportJobQueue;
}

/** The user's newest `user_data` export (everything they have, in one archive), if any. */
export async function latestUserDataExport(
  deps: UserDataExportDependencies,
  userId: string,
): Promise<ExportRecord | undefined> {
  const page = await deps.exports.list(
    deps.store.read(userId),
    { perPage: 100, offset: 0, includeDeleted: false },
    { type: 'user_data' },
  );
  return page.items.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/**
 * Requests a `user_data` export, as `POST /exports` does, so the user can take their data before leaving;
 * its job runs in the requesting page's `trace`.
 */
export async function requestUserDataExport(
  deps: UserDataExportDependencies,
  request: { userId: string; trace?: TraceContext },
): Promise<void> {
  const { userId, trace } = request;
  const created = await deps.store.change(request, (change) =>
    deps.exports.create(change, {
      type: 'user_data',
      resources: [],
      formats: [],
      filters: null,
      from: null,
      to: null,
    }),
  );
  await deps.exportJobs.enqueue(userId, created.id, { trace });
}
