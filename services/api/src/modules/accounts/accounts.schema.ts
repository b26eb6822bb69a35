import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ResourceSchema, WriteBodyOf } from '@pfs/resource-api';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '@pfs/resource-store';

const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` } as const;
const amount = { type: 'number', exclusiveMinimum: -1e15, exclusiveMaximum: 1e15 } as const;

/** The representation; written `as const` so the body type below is derived from what is published. */
const properties = {
  id: { type: 'string', readOnly: true },
  parent: id,
  name: { type: 'string', minLength: 1, maxLength: 100 },
  type: { type: 'string', enum: [...ACCOUNT_TYPES] },
  balance: { type: 'number', readOnly: true },
  initial_balance: amount,
  limit: amount,
  currency: {
    type: 'object',
    required: ['code'],
    properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
  },
  status: { type: 'string', enum: [...ACCOUNT_STATUSES] },
  order: { type: 'integer', minimum: 0, maximum: 255 },
  goal: {
    type: 'object',
    required: ['amount', 'start', 'end'],
    properties: {
      amount: { type: 'number', exclusiveMinimum: 0 },
      start: { type: 'string', format: 'date' },
      end: { type: 'string', format: 'date' },
    },
  },
  modified: { type: 'string', readOnly: true },
  deleted: { type: 'boolean', readOnly: true },
  recalculated: {
    type: 'boolean',
    readOnly: true,
    description: 'Always true: balances are updated with each write.',
  },
  extra: { type: 'object' },
} as const;

/** A POST, PUT or merged PATCH body once the published schema validated it (create and update need the same). */
const required = ['name', 'currency'] as const;
export type AccountBody = WriteBodyOf<typeof properties, typeof required>;

export const accountsSchema: ResourceSchema = {
  name: 'accounts',
  title: 'Account',
  description:
    "Where money is kept. `balance` is always initial_balance plus every live entry (converted with each entry's own rate). Deleting an account deletes its entries; a transfer's other side stays in its account as a plain entry. The last account cannot be deleted.",
  properties,
  createRequired: [...required],
  updateRequired: [...required],
  links: [
    {
      rel: 'list',
      href: '/accounts',
      method: 'GET',
      title: 'List accounts',
      target: 'list',
      scope: 'accounts:r',
      hrefSchema: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: [...ACCOUNT_STATUSES] },
          ids: { type: 'string' },
          page: { type: 'integer' },
          per_page: { type: 'integer' },
          since: { type: 'string' },
          include_deleted: { type: 'boolean' },
        },
      },
    },
    {
      rel: 'create',
      href: '/accounts',
      method: 'POST',
      title: 'Create an account',
      submission: 'create',
      target: 'object',
      scope: 'accounts:rw',
    },
    {
      rel: 'self',
      href: '/accounts/{id}',
      method: 'GET',
      title: 'Get an account',
      target: 'object',
      scope: 'accounts:r',
    },
    {
      rel: 'update',
      href: '/accounts/{id}',
      method: 'PUT',
      title: 'Replace an account',
      submission: 'update',
      target: 'object',
      scope: 'accounts:rw',
    },
    {
      rel: 'patch',
      href: '/accounts/{id}',
      method: 'PATCH',
      title: 'Change some fields (JSON merge patch)',
      submission: 'patch',
      target: 'object',
      scope: 'accounts:rw',
    },
    {
      rel: 'delete',
      href: '/accounts/{id}',
      method: 'DELETE',
      title: 'Delete an account and its entries (not the last one)',
      scope: 'accounts:rw',
    },
    {
      rel: 'move',
      href: '/accounts/{id}/move',
      method: 'POST',
      title: 'Move to a position',
      scope: 'accounts:rw',
      submission: {
        type: 'object',
        required: ['position'],
        properties: { position: { type: 'integer', minimum: 0 } },
      },
    },
    {
      rel: 'reorder',
      href: '/accounts/reorder',
      method: 'POST',
      title: 'Set the order of accounts',
      scope: 'accounts:rw',
      submission: {
        type: 'object',
        required: ['order'],
        properties: { order: { type: 'array', items: id } },
      },
    },
    {
      rel: 'merge',
      href: '/accounts/merge',
      method: 'POST',
      title: 'Move every entry of `accounts` into `account` and delete them',
      scope: 'accounts:rw',
      submission: {
        type: 'object',
        required: ['accounts', 'account'],
        properties: { accounts: { type: 'array', items: id }, account: id },
      },
    },
  ],
};
