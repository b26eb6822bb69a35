import type { ExportResource } from '@pfs/contracts';
import type { EntryExportResource, ExportScope, ExportStatementRepository } from '@pfs/resource-store';
import type { Writable } from 'node:stream';
import { writeOfx } from './ofx.formatter';

const ENTRY_RESOURCES: readonly EntryExportResource[] = ['expenses', 'incomes', 'transfers'];

/**
 * The OFX file of an export: a statement per account the filters keep, holding the entries of the entry
 * resources the export chose (expenses, incomes, transfers — each with its own filters, as on their sheets).
 * Entries stream through one cursor ordered by account, so memory stays flat at any size.
 */
export async function writeOfxStatement(
  statements: ExportStatementRepository,
  scope: ExportScope,
  resources: ExportResource[],
  out: Writable,
): Promise<void> {
  const chosen = ENTRY_RESOURCES.filter((resource) => resources.includes(resource));
  await writeOfx(
    {
      accounts: await statements.accounts(scope),
      transactions: statements.transactions(scope, chosen),
      from: scope.from,
      to: scope.to,
      now: new Date(),
    },
    out,
  );
}
