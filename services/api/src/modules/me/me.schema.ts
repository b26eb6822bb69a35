import type { ResourceDefinition, WriteBodyOf } from '@pfs/resource-api';

/** The profile; written `as const` so the body type below is derived from what is published. */
const properties = {
  id: { type: 'string', readOnly: true },
  email: { type: 'string', maxLength: 254, readOnly: true },
  first_name: { type: 'string', maxLength: 100 },
  last_name: { type: 'string', maxLength: 100 },
  joined: { type: 'string', format: 'date-time', readOnly: true },
  modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
  currency: {
    type: 'object',
    properties: {
      main: { type: 'string', pattern: '^[A-Z0-9_]{2,10}$' },
      update: {
        type: 'string',
        enum: ['historical', 'custom', 'sign'],
        description:
          'When main changes: historical (default) = figures in the main currency use the ECB rate of each ' +
          "entry's date; custom = they use custom_exchange_rate between the old and new main currency; " +
          'sign = the old code was wrong: entries and accounts in it are relabelled, amounts unchanged.',
      },
      update_accounts: {
        type: 'boolean',
        description:
          'With historical or custom: accounts in the old main currency move to the new one, their ' +
          'initial balance and entries converted (half-even).',
      },
      custom_exchange_rate: {
        type: ['number', 'string'],
        description: 'Units of the new main currency per 1 of the old; required when update is custom.',
      },
      custom: {
        description:
          'Sets custom rates: {code, rate, fixed, reference_currency} (reference defaults to main; rate = ' +
          'units of reference_currency per 1 code; no rate or 0 removes it), or an array of them.',
      },
      recent: {
        type: 'array',
        readOnly: true,
        description: 'Previous main currencies, latest first (with the custom rate held for that code).',
        items: {
          type: 'object',
          required: ['code'],
          properties: {
            code: { type: 'string' },
            rate: { type: 'number' },
            fixed: { type: 'boolean' },
            reference_currency: { type: 'string' },
          },
        },
      },
    },
    required: ['main'],
  },
  start_day: { type: 'integer', minimum: 1, maximum: 31 },
  locale: { type: 'string', maxLength: 35 },
  timezone: { type: 'string', maxLength: 64 },
  country: { type: 'string', pattern: '^[A-Z]{2}$' },
  limits: {
    type: 'object',
    readOnly: true,
    description: 'Plan limits on accounts, budgets and images; false = no limit (always, self-hosted).',
  },
  extra: { type: 'object', description: 'Any JSON the application stores; returned unchanged.' },
} as const;

/** A PUT /me body once the published schema validated it. */
const updateRequired = ['currency'] as const;
export type MeBody = WriteBodyOf<typeof properties, typeof updateRequired>;

/** The user profile (`/me`); PUT /me is added by the ledger module on this same schema name. */
export const meSchema: ResourceDefinition = {
  name: 'me',
  title: 'User',
  description: 'The authenticated user.',
  properties,
  createRequired: [],
  updateRequired: [...updateRequired],
};
