import type { ResourceDefinition } from '@pfs/resource-api';

export const currencyProperties = {
  code: { type: 'string', pattern: '^[A-Z]{3}$', readOnly: true },
  name: { type: 'string', readOnly: true },
  precision: { type: 'integer', minimum: 0, maximum: 9, readOnly: true },
  type: { type: 'string', enum: ['fiat', 'commodity', 'crypto', 'deprecated'], readOnly: true },
  rate: {
    type: 'object',
    readOnly: true,
    description: 'Units of this currency per 1 EUR on the day asked (or the nearest earlier business day).',
    properties: { date: { type: 'string', format: 'date' }, rate: { type: 'number' } },
  },
};

/**
 * Currencies are the same for every user: the ISO 4217 list (plus withdrawn codes still found in rate
 * history). We answer an array of objects that carry their `code` (the reference leaves the list shape
 * unverified; an array keeps the order; the list is whole, so it has no page headers).
 */
export const currenciesSchema: ResourceDefinition = {
  name: 'currencies',
  title: 'Currency',
  description:
    'An ISO 4217 currency with its precision (minor units) and type; rates are EUR reference rates (ECB).',
  properties: currencyProperties,
  createRequired: [],
};
