import type { ResourceDefinition } from '@pfs/resource-api';
import { PUSH_TOKEN_TYPES } from '@pfs/resource-store';

/** `POST /me/push`, declared so the published document lists it; push.routes.ts validates the body. */
export const pushSchema: ResourceDefinition = {
  name: 'push',
  title: 'Push registration',
  description: 'A device registered for push notifications: the kind of token and the token itself.',
  properties: {
    type: { type: 'string', enum: [...PUSH_TOKEN_TYPES] },
    token: { type: 'string', minLength: 1, maxLength: 4096, description: 'Must match the kind of type.' },
  },
  createRequired: ['type', 'token'],
};
