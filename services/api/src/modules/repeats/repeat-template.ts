import { formatAmount } from '@pfs/money';
import type { EntryBody } from '../entries/entry-body.schema';
import { assertEntryRules, type EntryDraft, entryDraftOf } from '../entries/entry-draft';

/**
 * The entry state a series' occurrences are made from, kept as an entry body (exact amounts as text) so it
 * is read back through the entry rules and draft of any client body (entry-draft.ts). It has no date (each
 * occurrence has its own) and no `completed` (a bill is paid occurrence by occurrence). A rate is kept only when the client chose
 * one: otherwise each occurrence takes the ECB rate of its own date.
 */
export type RepeatTemplate = Record<string, unknown>;

export function templateOf(draft: EntryDraft): RepeatTemplate {
  const transfer = draft.transaction;
  return {
    amount: formatAmount(draft.amount),
    currency: {
      code: draft.currency.code,
      ...(draft.currency.rate ? { rate: formatAmount(draft.currency.rate) } : {}),
      fixed: draft.currency.fixed,
    },
    ...(draft.desc ? { desc: draft.desc } : {}),
    account: draft.account,
    ...(draft.category ? { category: draft.category } : {}),
    ...(draft.tags.length ? { tags: draft.tags } : {}),
    ...(draft.location ? { location: draft.location } : {}),
    ...(draft.reminders?.length ? { reminders: draft.reminders } : {}),
    ...(draft.extra ? { extra: draft.extra } : {}),
    ...(transfer
      ? {
          transaction: {
            account: transfer.account,
            ...(transfer.amount ? { amount: formatAmount(transfer.amount) } : {}),
            ...(transfer.currency
              ? {
                  currency: {
                    code: transfer.currency.code,
                    ...(transfer.currency.rate ? { rate: formatAmount(transfer.currency.rate) } : {}),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}

/** The draft of one occurrence. */
export function draftFromTemplate(template: RepeatTemplate, date: string, completed = false): EntryDraft {
  // A template is a body checked when the series was written; the occurrence's date is checked again.
  const body = { ...template, date, completed } as unknown as EntryBody;
  assertEntryRules(body);
  return entryDraftOf(body);
}

/** The accounts a template writes to (for locking them before a write). */
export function accountsOf(template: RepeatTemplate): string[] {
  const transfer = template.transaction as { account?: string } | undefined;
  return [String(template.account), ...(transfer?.account ? [transfer.account] : [])];
}
