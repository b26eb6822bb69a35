import { FieldError, inputError } from '@pfs/errors';
import { applyRate, Decimal, findCrossRate, formatAmount, roundToCurrency } from '@pfs/money';
import type { Account, Entry, EntrySnapshot, UserChange } from '@pfs/resource-store';
import type { EntryDraft } from './entry-draft';
import type { LedgerDeps } from '../../ledger-deps';

/**
 * Writes entries inside one change (the caller's UserChange), keeping every affected account's
 * entries total in step and every transfer's companion entry in step. All writes of one request go
 * through one writer, so a batch or a transfer is all or nothing.
 */
export class EntryWriter {
  private readonly accounts = new Map<string, Account>();

  constructor(
    private readonly deps: LedgerDeps,
    private readonly change: UserChange,
  ) {}

  /** Locks and caches the user's accounts the drafts name; unknown ones become field errors later. */
  async loadAccounts(ids: string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.accounts.has(id));
    for (const account of await this.deps.accounts.lockAccounts(this.change, missing)) {
      this.accounts.set(account.id, account);
    }
  }

  /** Checks that categories, tags and images exist for this user; returns field errors. */
  async checkReferences(drafts: Array<{ draft: EntryDraft; prefix: string }>): Promise<FieldError[]> {
    const categoryIds = drafts.flatMap(({ draft }) => (draft.category ? [draft.category] : []));
    const tagIds = drafts.flatMap(({ draft }) => draft.tags);
    const categories = new Set(await this.deps.entries.findLiveCategoryIds(this.change, categoryIds));
    const tags = new Set(await this.deps.entries.findLiveTagIds(this.change, tagIds));
    const imageIds = drafts.flatMap(({ draft }) => draft.images);
    const images = new Set(await this.deps.entries.findLiveImageIds(this.change, imageIds));
    const errors: FieldError[] = [];
    for (const { draft, prefix } of drafts) {
      if (!this.accounts.has(draft.account))
        errors.push({ field: `${prefix}account`, error: 'must be one of your accounts' });
      if (draft.transaction && !this.accounts.has(draft.transaction.account)) {
        errors.push({ field: `${prefix}transaction.account`, error: 'must be one of your accounts' });
      }
      if (draft.transaction?.account === draft.account) {
        errors.push({ field: `${prefix}transaction.account`, error: 'must differ from account' });
      }
      if (draft.category && !categories.has(draft.category)) {
        errors.push({ field: `${prefix}category`, error: 'must be one of your categories' });
      }
      draft.tags.forEach((tag, index) => {
        if (!tags.has(tag))
          errors.push({ field: `${prefix}tags.${index}`, error: 'must be one of your tags' });
      });
      draft.images.forEach((image, index) => {
        if (!images.has(image))
          errors.push({ field: `${prefix}images.${index}`, error: 'must be one of your images' });
      });
    }
    return errors;
  }

  account(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw inputError([{ field: 'account', error: 'must be one of your accounts' }]);
    return account;
  }

  /**
   * The stored state of a draft: amount rounded to its currency, the rate to the account's currency (the
   * client's, else the ECB cross rate of the entry's date), and the amount in the account's currency.
   */
  toSnapshot(draft: EntryDraft, prefix: string, transactionId?: string): EntrySnapshot {
    const account = this.account(draft.account);
    const amount = roundToCurrency(draft.amount, draft.currency.code);
    let rate: Decimal | undefined =
      draft.currency.code === account.currency ? new Decimal(1) : draft.currency.rate;
    rate ??= findCrossRate(this.deps.rates, draft.currency.code, account.currency, draft.date);
    if (!rate) {
      throw inputError([
        {
          field: `${prefix}currency.rate`,
          error: `is required: no stored rate to ${account.currency} on ${draft.date}`,
        },
      ]);
    }
    return {
      amount: formatAmount(amount),
      currency: { code: draft.currency.code, rate: formatAmount(rate), fixed: draft.currency.fixed },
      date: draft.date,
      ...(draft.desc ? { desc: draft.desc } : {}),
      account: account.id,
      ...(draft.category ? { category: draft.category } : {}),
      ...(draft.tags.length ? { tags: draft.tags } : {}),
      ...(draft.location ? { location: draft.location } : {}),
      ...(draft.reminders?.length ? { reminders: draft.reminders } : {}),
      completed: draft.completed,
      ...(transactionId ? { transaction: { id: transactionId } } : {}),
      ...(draft.images.length ? { images: draft.images.map((id) => ({ id })) } : {}),
      ...(draft.extra ? { extra: draft.extra } : {}),
      account_amount: formatAmount(applyRate(amount, rate, account.currency)),
    };
  }

  /** The companion of a transfer: the opposite movement in the other account, same day, text, category, tags. */
  companionDraft(draft: EntryDraft): EntryDraft {
    const transfer = draft.transaction!;
    // Without an amount the companion mirrors the entry: same money in the same currency (its account's
    // rate converts it). A currency only means something together with an amount.
    const currency = transfer.amount
      ? (transfer.currency ?? { code: draft.currency.code })
      : { code: draft.currency.code };
    const magnitude = transfer.amount?.abs() ?? draft.amount.abs();
    return {
      ...draft,
      account: transfer.account,
      currency: { code: currency.code, rate: currency.rate, fixed: false },
      amount: draft.amount.isNegative() ? magnitude : magnitude.negated(),
      transaction: undefined,
      reminders: undefined,
    };
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
