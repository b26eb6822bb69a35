import { eventObjectKind, type WebhookEventType } from '@pfs/contracts';
import { categoriesTable, type OutboxEvent, tagsTable, type UserRead } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import { presentAccount } from '../accounts/accounts.presenter';
import { budgetsDepsOf } from '../budgets/budgets.deps';
import { presentBudget } from '../budgets/budgets.presenter';
import { currentIteration, viewBudgets } from '../budgets/budget-views.use-case';
import { presentCategory } from '../categories/categories.presenter';
import { entryPresenterFor } from '../entries/entry-presenter-for';
import { presentExport } from '../exports/exports.presenter';
import { presentImport } from '../imports/imports.presenter';
import { presentTag } from '../tags/tags.presenter';

type Presented = Record<string, unknown>;
type ObjectPresenter = (read: UserRead, id: string) => Promise<Presented | undefined>;

/**
 * How each kind of object is presented: the repositories and presenters its GET route uses, reading deleted
 * objects too (a `*.deleted` event carries the object with `deleted: true`).
 */
function objectPresenters(deps: ApiDependencies): Record<string, ObjectPresenter> {
  const { repos } = deps;
  const entries = entryPresenterFor(deps);
  const budgets = budgetsDepsOf(deps);
  const gone = { includeDeleted: true };
  return {
    entry: async (read, id) => {
      const entry = await repos.entries.table.findById(read, id, gone);
      return entry && (await entries(read, [entry]))(entry);
    },
    account: async (read, id) => {
      const account = await repos.accounts.table.findById(read, id, gone);
      return account && presentAccount(account);
    },
    category: async (read, id) => {
      const category = await categoriesTable.findById(read, id, gone);
      return category && presentCategory(category, (await repos.categories.countsFor(read, [id])).get(id));
    },
    tag: async (read, id) => {
      const tag = await tagsTable.findById(read, id, gone);
      return tag && presentTag(tag, (await repos.tags.countsFor(read, [id])).get(id));
    },
    budget: async (read, id) => {
      const [budget, user] = await Promise.all([
        repos.budgets.table.findById(read, id, gone),
        repos.users.findById(read.userId),
      ]);
      if (!budget || !user) return undefined;
      const [view] = await viewBudgets(
        budgets,
        { id: user.id, actor: read, startDay: user.startDay, currency: user.currency },
        [{ budget, iteration: currentIteration(budget, user.startDay) }],
        read,
      );
      return presentBudget(view);
    },
    export: async (read, id) => {
      const record = await repos.exports.findById(read, id, gone);
      return record && presentExport(record);
    },
    import: async (read, id) => {
      const record = await repos.imports.findById(read, id);
      return record && presentImport(record);
    },
  };
}

/** Renders the payload of an event for one application (`extra` is private to each application). */
export type PayloadRenderer = (event: OutboxEvent, app: string) => Promise<Presented>;

/**
 * The body every webhook of the event's application receives (Standard Webhooks' `type`, `timestamp`,
 * `data`): `data` is the object as its GET route presents it when the event is relayed, and `modified`
 * repeats its version, so a receiver holding a newer one ignores it (or fetches the endpoint with `since`).
 * An object that is gone entirely is `{id}`.
 */
export function webhookPayloadRenderer(deps: ApiDependencies): PayloadRenderer {
  const presenters = objectPresenters(deps);
  return async (event, app) => {
    const present = presenters[eventObjectKind(event.type as WebhookEventType)];
    const read = deps.store.read({ userId: event.userId, app });
    const data = (present && (await present(read, event.objectId))) || { id: event.objectId };
    return { type: event.type, timestamp: event.createdAt.toISOString(), modified: data.modified, data };
  };
}
