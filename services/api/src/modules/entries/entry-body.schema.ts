import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { WriteBodyOf } from '@pfs/resource-api';

// The entry's schema, written `as const` so `EntryBody` is derived from the very objects that are published.
export const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` } as const;
const amount = { type: 'number', exclusiveMinimum: -1e15, exclusiveMaximum: 1e15 } as const;
const currency = {
  type: 'object',
  required: ['code'],
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    rate: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'Units of the account currency per unit of this one; default: the ECB rate of the date.',
    },
    main_rate: {
      type: 'number',
      readOnly: true,
      description: 'Units of the main currency per unit of this one.',
    },
    fixed: { type: 'boolean' },
  },
} as const;

const intList = { type: ['string', 'integer'] } as const;
/** `entry.repeat` (docs/ledger.md "Repeating entries"); repeat-rule.ts checks it and names bad fields. */
const repeatSchema = {
  type: 'object',
  description:
    'Makes the entry the first of a repeating series (RFC 5545 RRULE semantics); on reads, the series of an occurrence.',
  properties: {
    id: { type: 'string', readOnly: true },
    start: { type: 'string', format: 'date' },
    end: { type: 'string', format: 'date' },
    count: { type: 'integer', minimum: 1 },
    frequency: { type: 'string', enum: ['daily', 'weekly', 'monthly', 'yearly'] },
    interval: { type: 'integer', minimum: 1, maximum: 127 },
    byday: { type: 'string', description: 'Weekdays, optionally with an ordinal: MO,TU or 1MO or -1FR.' },
    bymonthday: { ...intList, description: 'Days of the month, 1–31 or -31–-1, comma-separated.' },
    bysetpos: {
      ...intList,
      description: 'Positions in the set byday/bymonthday give, e.g. -1 for the last.',
    },
    iteration: { type: 'integer', readOnly: true },
    template: { type: 'boolean', readOnly: true },
    type: { type: 'string', enum: ['automatic', 'confirm', 'confirmed'] },
    status: { type: 'string', enum: ['ok', 'missing_entries'], readOnly: true },
  },
} as const;

/** The representation of an entry (`GET /schema/entries`). */
export const entryProperties = {
  id: { type: 'string', readOnly: true },
  amount,
  currency,
  date: { type: 'string', format: 'date' },
  desc: { type: 'string', maxLength: 3072 },
  account: id,
  category: id,
  tags: { type: 'array', maxItems: 100, items: id },
  location: {
    type: 'object',
    required: ['latitude', 'longitude'],
    properties: {
      id,
      venue_id: { type: 'string', maxLength: 255 },
      latitude: { type: 'number', minimum: -90, maximum: 90 },
      longitude: { type: 'number', minimum: -180, maximum: 180 },
    },
  },
  reminders: {
    type: 'array',
    maxItems: 5,
    items: {
      type: 'object',
      required: ['period', 'number', 'at'],
      properties: {
        period: { type: 'string', enum: ['day', 'week', 'month', 'year'] },
        number: { type: 'integer', minimum: 0, maximum: 255 },
        at: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$' },
      },
    },
  },
  completed: { type: 'boolean' },
  images: {
    type: 'array',
    maxItems: 4,
    description: 'Attached images (ids of /images); the rest of each item is read-only.',
    items: {
      type: 'object',
      required: ['id'],
      properties: {
        id,
        path: {
          type: 'string',
          readOnly: true,
          description: 'Append thumb.jpg, full.jpg or document.pdf.',
        },
        filename: { type: 'string', readOnly: true },
        type: { type: 'string', enum: ['image', 'pdf'], readOnly: true },
        status: { type: 'string', enum: ['new', 'uploaded', 'error', 'deleting'], readOnly: true },
      },
    },
  },
  repeat: repeatSchema,
  transaction: {
    type: 'object',
    required: ['account'],
    description:
      'Makes the entry a transfer to or from `account`; amount and currency default to the opposite of the entry.',
    properties: { id: { ...id, readOnly: true }, account: id, amount, currency },
  },
  created: { type: 'string', format: 'date-time', readOnly: true },
  modified: { type: 'string', readOnly: true },
  deleted: { type: 'boolean', readOnly: true },
  extra: { type: 'object' },
} as const;

/** A POST, PUT or merged PATCH body once the published schema validated it. */
export const entryRequired = ['amount', 'currency', 'date', 'account', 'category'] as const;
export type EntryBody = WriteBodyOf<typeof entryProperties, typeof entryRequired>;
