import type { ImportRecord } from '@pfs/resource-store';
import { removeFile, type ImportDependencies } from './import-dependencies';

/**
 * THE moment an import reaches `imported`: its last batch is committed, and this change moves the status.
 * Anything that must happen exactly when an import is done belongs in this change (the `import.imported`
 * webhook event is written here, in the same transaction, once the webhook outbox exists). Returns the
 * imported record, or the stored one when another process finished it first.
 */
export async function completeImport(deps: ImportDependencies, record: ImportRecord): Promise<ImportRecord> {
  const imported = await deps.repos.store.change(record.userId, (change) =>
    deps.repos.imports.advance(change, record.id, ['importing'], 'imported', { storageKey: null }),
  );
  if (!imported) {
    return (await deps.repos.imports.findById(deps.repos.store.read(record.userId), record.id)) ?? record;
  }
  await removeFile(deps, record);
  return imported;
}
