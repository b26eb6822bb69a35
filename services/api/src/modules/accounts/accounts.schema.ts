import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ResourceDefinition, SubmissionOf, WriteBodyOf } from '@pfs/resource-api';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '@pfs/resource-store';

export const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` } as const;
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

export const accountsSchema: ResourceDefinition = {
  name: 'accounts',
  title: 'Account',
  description:
    "Where money is kept. `balance` is always initial_balance plus every live entry (converted with each entry's own rate). Deleting an account deletes its entries; a transfer's other side stays in its account as a plain entry. The last account cannot be deleted.",
  properties,
  createRequired: [...required],
  updateRequired: [...required],
};

// The submissions of the action links, published by the links and validated by the same objects.
export const moveSubmission = {
  type: 'object',
  required: ['position'],
  properties: { position: { type: 'integer', minimum: 0 } },
} as const;
export const reorderSubmission = {
  type: 'object',
  required: ['order'],
  properties: { order: { type: 'array', items: id } },
} as const;
export const mergeSubmission = {
  type: 'object',
  required: ['accounts', 'account'],
  properties: { accounts: { type: 'array', items: id }, account: id },
} as const;
export type MoveBody = SubmissionOf<typeof moveSubmission>;
export type ReorderBody = SubmissionOf<typeof reorderSubmission>;
export type MergeBody = SubmissionOf<typeof mergeSubmission>;
