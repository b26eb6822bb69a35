import { Decimal } from '@pfs/money';
import type { Entry, EntrySnapshot, UserChange } from '@pfs/resource-store';
import type { EntryDraft } from './entry-draft';
import { EntryDrafts } from './entry-drafts';
import type { LedgerDeps } from '../../ledger-deps';

/**
 * Writes entries inside one change (the caller's UserChange), keeping every affected account's
 * entries total in step and every transfer's companion entry in step. All writes of one request go
 * through one writer, so a batch or a transfer is all or nothing.
 */
export class EntryWriter extends EntryDrafts {
  constructor(
    deps: LedgerDeps,
    private readonly change: UserChange,
  ) {
    super(deps, change);
  }

  /** Inserts an entry (and its companion when it is a transfer) and moves the balances. */
  async insert(draft: EntryDraft, prefix = ''): Promise<Entry> {
    const entry = await this.insertOne(this.toSnapshot(draft, prefix));
    if (!draft.transaction) return entry;
    const companion = await this.insertOne(
      this.toSnapshot(this.companionDraft(draft), `${prefix}transaction.`),
    );
    await this.deps.entries.linkPair(this.change, entry.id, companion.id);
    return { ...entry, transactionId: companion.id };
  }

  /**
   * Entries without a transfer, in the order given: one INSERT for all of them and one for their revisions
   * (ResourceTable.insertMany), then one balance write per account, instead of three statements an entry.
   */
  async insertAll(items: Array<{ draft: EntryDraft; prefix: string }>): Promise<Entry[]> {
    const snapshots = items.map(({ draft, prefix }) => this.toSnapshot(draft, prefix));
    const entries = await this.deps.entries.table.insertMany(this.change, snapshots);
    const perAccount = new Map<string, { delta: Decimal; count: number }>();
    for (const entry of entries) {
      const moved = perAccount.get(entry.accountId) ?? { delta: new Decimal(0), count: 0 };
      moved.delta = moved.delta.plus(entry.accountAmount);
      moved.count += 1;
      perAccount.set(entry.accountId, moved);
    }
    for (const [accountId, moved] of perAccount) {
      await this.moveBalance(accountId, moved.delta.toFixed(), moved.count);
    }
    return entries;
  }

  private async insertOne(snapshot: EntrySnapshot): Promise<Entry> {
    const entry = await this.deps.entries.table.insert(this.change, snapshot);
    await this.moveBalance(entry.accountId, entry.accountAmount, 1);
    return entry;
  }

  /** Replaces an entry's state; the balance moves by the difference (across accounts if it moved). */
  async replace(current: Entry, snapshot: EntrySnapshot): Promise<Entry> {
    const updated = await this.deps.entries.table.update(this.change, current.id, snapshot);
    if (current.accountId === updated!.accountId) {
      await this.moveBalance(
        current.accountId,
        new Decimal(updated!.accountAmount).minus(current.accountAmount).toFixed(),
      );
    } else {
      await this.moveBalance(current.accountId, new Decimal(current.accountAmount).negated().toFixed(), -1);
      await this.moveBalance(updated!.accountId, updated!.accountAmount, 1);
    }
    return updated!;
  }

  /** Soft-deletes entries and takes them out of their accounts' balances. */
  async remove(entries: Entry[]): Promise<void> {
    await this.deps.entries.table.softDelete(
      this.change,
      entries.map((entry) => entry.id),
    );
    // One balance write per account, not per entry: a series or an account's worth of entries may go at once.
    const perAccount = new Map<string, { delta: Decimal; count: number }>();
    for (const entry of entries) {
      const moved = perAccount.get(entry.accountId) ?? { delta: new Decimal(0), count: 0 };
      moved.delta = moved.delta.minus(entry.accountAmount);
      moved.count -= 1;
      perAccount.set(entry.accountId, moved);
    }
    for (const [accountId, moved] of perAccount) {
      await this.moveBalance(accountId, moved.delta.toFixed(), moved.count);
    }
  }

  private async moveBalance(accountId: string, delta: string, countDelta = 0): Promise<void> {
    if (new Decimal(delta).isZero() && countDelta === 0) return;
    await this.deps.accounts.addToEntriesTotal(this.change, accountId, delta, countDelta);
  }
}
