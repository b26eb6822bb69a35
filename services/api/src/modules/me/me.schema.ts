import type { ResourceSchema } from '@pfs/resource-api';

/** The user profile (`/me`); PUT /me is added by the ledger module on this same schema name. */
export const meSchema: ResourceSchema = {
  name: 'me',
  title: 'User',
  description: 'The authenticated user.',
  properties: {
    id: { type: 'string', readOnly: true },
    email: { type: 'string', maxLength: 254, readOnly: true },
    first_name: { type: 'string', maxLength: 100 },
    last_name: { type: 'string', maxLength: 100 },
    joined: { type: 'string', format: 'date-time', readOnly: true },
    modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
    currency: {
      type: 'object',
      properties: { main: { type: 'string', pattern: '^[A-Z0-9_]{2,10}$' } },
      required: ['main'],
    },
    start_day: { type: 'integer', minimum: 1, maximum: 31 },
    locale: { type: 'string', maxLength: 35 },
    timezone: { type: 'string', maxLength: 64 },
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
    extra: { type: 'object', description: 'Any JSON the application stores; returned unchanged.' },
  },
  createRequired: [],
  updateRequired: ['currency'],
  links: [
    {
      rel: 'self',
      href: '/me',
      method: 'GET',
      title: 'The authenticated user',
      target: 'object',
      scope: 'user:r',
    },
  ],
};
