import Decimal from 'decimal.js';
import type { OperationAnswer } from './operation-call';

type Row = Record<string, unknown>;

const codeOf = (currency: unknown) => (currency as { code?: string } | undefined)?.code;

/** Drops the members that are undefined, so a compact row carries only what it has. */
function defined(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));
}

export const compactEntry = (entry: Row): Row =>
  defined({
    id: entry.id,
    date: entry.date,
    amount: entry.amount,
    currency: codeOf(entry.currency),
    desc: entry.desc || undefined,
    account: entry.account,
    category: entry.category,
    tags: Array.isArray(entry.tags) && entry.tags.length ? entry.tags : undefined,
    transfer_account: (entry.transaction as Row | undefined)?.account,
    repeating: entry.repeat ? true : undefined,
    planned: entry.planned || undefined,
    modified: entry.modified,
  });

export const compactAccount = (account: Row): Row =>
  defined({
    id: account.id,
    name: account.name,
    type: account.type,
    balance: account.balance,
    currency: codeOf(account.currency),
    parent: account.parent ?? undefined,
    status: account.status,
  });

/** A budget with what is left of it this period: limit − amount, exact (decimal), as /me/summary counts it. */
export const compactBudget = (budget: Row): Row =>
  defined({
    id: budget.id,
    name: budget.name,
    type: budget.type,
    from: budget.from,
    to: budget.to,
    currency: codeOf(budget.currency),
    limit: budget.limit,
    amount: budget.amount,
    planned: budget.planned,
    left:
      typeof budget.limit === 'number' && typeof budget.amount === 'number'
        ? new Decimal(String(budget.limit)).minus(String(budget.amount)).toNumber()
        : undefined,
    problem: budget.problem ? true : undefined,
  });

export const compactLabel = (label: Row): Row =>
  defined({ id: label.id, name: label.name, type: label.type, category: label.category ?? undefined });

export const compactSums = (row: Row): Row => {
  const { modified: _modified, ...rest } = row;
  return rest;
};

/**
 * A page of a list as a tool answers it: the compact items, and where the page stands (the total from
 * X-Total-Count, and the next page number while there is one, from the Link header).
 */
export function compactPage(answer: OperationAnswer, key: string, compact: (row: Row) => Row, page: number) {
  const items = Array.isArray(answer.body) ? (answer.body as Row[]) : [];
  const total = answer.headers['x-total-count'];
  const hasNext = /rel="next"/.test(answer.headers.link ?? '');
  return defined({
    [key]: items.map(compact),
    page,
    total: total === undefined ? undefined : Number(total),
    next_page: hasNext ? page + 1 : undefined,
  });
}
