import type { DeclaredOperation } from '../../http/api-operation';
import type { budgetsHandlers } from './budgets.routes';
import {
  budgetCreateBody,
  budgetHistoryItem,
  budgetHistoryQuery,
  budgetsListQuery,
  budgetUpdateBody,
  id as budgetIdSchema,
} from './budgets.schema';

/** The operations of /budgets, as published; the handlers are in budgets.routes.ts. */
export type BudgetsHandlers = ReturnType<typeof budgetsHandlers>;

const resource = 'budgets';

export const budgetsOperations: Array<DeclaredOperation<BudgetsHandlers>> = [
  {
    resource,
    rel: 'list',
    href: '/budgets',
    method: 'GET',
    title: 'List budget iterations in a range',
    hrefSchema: budgetsListQuery,
    target: 'list',
    scope: 'budgets:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    href: '/budgets',
    method: 'POST',
    title: 'Create a budget',
    submission: budgetCreateBody,
    target: 'object',
    scope: 'budgets:rw',
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    href: '/budgets/{id}',
    method: 'GET',
    title: 'Get a budget (its current iteration)',
    target: 'object',
    scope: 'budgets:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    href: '/budgets/{id}',
    method: 'PUT',
    title: 'Replace a budget (?update=all|tail)',
    submission: budgetUpdateBody,
    target: 'object',
    scope: 'budgets:rw',
    handler: 'replace',
  },
  {
    resource,
    rel: 'patch',
    href: '/budgets/{id}',
    method: 'PATCH',
    title: 'Change some fields (JSON merge patch)',
    submission: 'patch',
    target: 'object',
    scope: 'budgets:rw',
    handler: 'patch',
  },
  {
    resource,
    rel: 'delete',
    href: '/budgets/{id}',
    method: 'DELETE',
    title: 'Delete a budget',
    scope: 'budgets:rw',
    handler: 'remove',
  },
  {
    resource,
    rel: 'history',
    href: '/budgets/{id}/history',
    method: 'GET',
    title: 'Past iterations of a budget, newest first',
    scope: 'budgets:r',
    hrefSchema: budgetHistoryQuery,
    target: 'list',
    // Its own rows (figures of one iteration), paged like every list.
    listItem: budgetHistoryItem,
    handler: 'history',
  },
  {
    resource,
    rel: 'move',
    href: '/budgets/{id}/move',
    method: 'POST',
    title: 'Move to a position',
    scope: 'budgets:rw',
    submission: {
      type: 'object',
      required: ['position'],
      properties: { position: { type: 'integer', minimum: 0 } },
    },
    handler: 'move',
  },
  {
    resource,
    rel: 'reorder',
    href: '/budgets/reorder',
    method: 'POST',
    title: 'Set the order of budgets',
    scope: 'budgets:rw',
    submission: {
      type: 'object',
      required: ['order'],
      properties: { order: { type: 'array', items: budgetIdSchema } },
    },
    handler: 'reorder',
  },
];
