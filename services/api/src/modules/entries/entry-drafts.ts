import { FieldError, inputError } from '@pfs/errors';
import { applyRate, Decimal, findCrossRate, formatAmount, roundToCurrency } from '@pfs/money';
import type { Account, EntrySnapshot, UserRead } from '@pfs/resource-store';
import type { EntryDraft } from './entry-draft';
import type { LedgerDeps } from '../../ledger-deps';

/**
 * What a write of entries knows before it writes: the user's accounts the drafts name, the field errors of
 * their references, and each draft's stored state. Reads through `read`: a change (EntryWriter), or the pool
 * for the checks made before a one-trip change (create-plain-entries.ts).
 */
export class EntryDrafts {
  private readonly accounts = new Map<string, Account>();

  constructor(
    protected readonly deps: LedgerDeps,
    private readonly read: UserRead,
  ) {}

  /** Reads and caches the user's accounts the drafts name; unknown ones become field errors later. */
  async loadAccounts(ids: string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.accounts.has(id));
    for (const account of await this.deps.accounts.table.findByIds(this.read, missing)) {
      this.accounts.set(account.id, account);
    }
  }

  /** Checks that categories, tags and images exist for this user; returns field errors. */
  async checkReferences(drafts: Array<{ draft: EntryDraft; prefix: string }>): Promise<FieldError[]> {
    const categoryIds = drafts.flatMap(({ draft }) => (draft.category ? [draft.category] : []));
    const tagIds = drafts.flatMap(({ draft }) => draft.tags);
    const categories = new Set(await this.deps.entries.findLiveCategoryIds(this.read, categoryIds));
    const tags = new Set(await this.deps.entries.findLiveTagIds(this.read, tagIds));
    const imageIds = drafts.flatMap(({ draft }) => draft.images);
    const images = new Set(await this.deps.entries.findLiveImageIds(this.read, imageIds));
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
}
