import type { PipelineDependencies } from './pipeline-dependencies';

const BATCH = 200;

/**
 * The scheduled cleanup: removes the files of exports past `expires_at` and deletes those exports
 * (soft, so syncing clients learn they are gone). Returns how many were cleaned.
 */
export async function cleanupExpiredExports(
  deps: PipelineDependencies,
  now: Date = new Date(),
): Promise<number> {
  let cleaned = 0;
  for (;;) {
    const expired = await deps.repos.exports.findExpired(now, BATCH);
    for (const record of expired) {
      if (record.storageKey) await deps.storage.delete(record.storageKey);
      await deps.repos.store.change(record.userId, (change) =>
        deps.repos.exports.markExpired(change, record.id),
      );
      cleaned += 1;
    }
    if (expired.length < BATCH) return cleaned;
  }
}
