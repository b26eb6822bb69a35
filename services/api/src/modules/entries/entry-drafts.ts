import { FieldError, inputError } from '@pfs/errors';
import { applyRate, Decimal, findCrossRate, formatAmount, roundToCurrency } from '@pfs/money';
import type { EntrySnapshot, UserRead } from '@pfs/resource-store';
import type { EntryDraft } from './entry-draft';
import type { AccountCurrency, UserReferences } from './known-references';
import type { LedgerDeps } from '../../ledger-deps';

/**
 * What a write of entries knows before it writes: the user's accounts the drafts name, the field errors of
 * their references, and each draft's stored state. Reads through `read`: a change (EntryWriter), or the pool
 * for the checks made before a one-trip change (create-plain-entries.ts), which alone passes `known`: the
 * references found live by the user's earlier writes, taken as live without a read (the one-trip statement
 * checks them again under the lock; known-references.ts), and given what this one's reads find.
 */
export class EntryDrafts {
  private readonly accounts = new Map<string, AccountCurrency>();

  constructor(
    protected readonly deps: LedgerDeps,
    private readonly read: UserRead,
    private readonly known?: UserReferences,
  ) {}

  /** Reads and caches the user's accounts the drafts name; unknown ones become field errors later. */
  async loadAccounts(ids: string[]): Promise<void> {
    const unknown: string[] = [];
    for (const id of new Set(ids)) {
      if (this.accounts.has(id)) continue;
      const known = this.known?.accounts.get(id);
      if (known) this.accounts.set(id, known);
      else unknown.push(id);
    }
    const found = await this.deps.accounts.table.findByIds(this.read, unknown);
    for (const account of found) this.accounts.set(account.id, account);
    this.known?.rememberAccounts(found);
  }

  /** Checks that categories, tags and images exist for this user; returns field errors. */
  async checkReferences(drafts: Array<{ draft: EntryDraft; prefix: string }>): Promise<FieldError[]> {
    const categoryIds = drafts.flatMap(({ draft }) => (draft.category ? [draft.category] : []));
    const tagIds = drafts.flatMap(({ draft }) => draft.tags);
    const { entries } = this.deps;
    const categories = await this.liveIds(categoryIds, this.known?.categories, (ids) =>
      entries.findLiveCategoryIds(this.read, ids),
    );
    const tags = await this.liveIds(tagIds, this.known?.tags, (ids) =>
      entries.findLiveTagIds(this.read, ids),
    );
    const imageIds = drafts.flatMap(({ draft }) => draft.images);
    const images = await this.liveIds(imageIds, this.known?.images, (ids) =>
      entries.findLiveImageIds(this.read, ids),
    );
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

  /** The live ones among `ids`: those `known` holds, and those a read finds among the rest (then known too). */
  private async liveIds(
    ids: string[],
    known: Set<string> | undefined,
    find: (ids: string[]) => Promise<string[]>,
  ): Promise<Set<string>> {
    const unknown = known ? ids.filter((id) => !known.has(id)) : ids;
    const found = await find(unknown);
    if (known) this.known!.remember(known, found);
    return known ? new Set([...ids.filter((id) => known.has(id)), ...found]) : new Set(found);
  }

  account(id: string): AccountCurrency {
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
}
