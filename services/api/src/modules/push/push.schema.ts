import type { ResourceDefinition, WriteBodyOf } from '@pfs/resource-api';
import { PUSH_TOKEN_TYPES } from '@pfs/resource-store';

const properties = {
  type: { type: 'string', enum: PUSH_TOKEN_TYPES },
  token: {
    type: 'string',
    minLength: 1,
    maxLength: 4096,
    pattern: '\\S',
    description: 'Must match the kind of type; white space around it is dropped.',
  },
} as const;
const createRequired = ['type', 'token'] as const;

/** A POST /me/push body once the published schema validated it. */
export type PushBody = WriteBodyOf<typeof properties, typeof createRequired>;

/** `POST /me/push`: the published schema validates the body; push-token-shape.ts checks the token's form. */
export const pushSchema: ResourceDefinition = {
  name: 'push',
  title: 'Push registration',
  description: 'A device registered for push notifications: the kind of token and the token itself.',
  properties,
  createRequired: [...createRequired],
};
