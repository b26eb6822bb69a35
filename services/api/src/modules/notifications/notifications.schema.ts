import type { JsonSchema, ResourceDefinition } from '@pfs/resource-api';
import { syncedListParams } from '../../http/list-query';

export const notificationsSchema: ResourceDefinition = {
  name: 'notifications',
  title: 'Notification',
  description: 'Something the service tells the user, such as a finished export (type export).',
  properties: {
    id: { type: 'string', readOnly: true },
    type: { type: 'string', readOnly: true, description: 'What it is about: export.' },
    action: { type: 'string', readOnly: true, description: 'For exports: generated or error.' },
    text: { type: 'string', readOnly: true },
    date: { type: 'string', format: 'date-time', readOnly: true },
    export: { type: 'string', readOnly: true, description: 'The export it is about, for type export.' },
    modified: { type: 'string', readOnly: true },
    deleted: { type: 'boolean', readOnly: true },
  },
  createRequired: [],
};

/** The query of `GET /me/notifications`. */
export const notificationsListQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...syncedListParams({ describeSince: false }),
  },
};
