import type { ResourceDefinition } from '@pfs/resource-api';

/** `GET /rate-limit`, declared so the published document lists it like every other route. */
export const rateLimitSchema: ResourceDefinition = {
  name: 'rate-limit',
  title: 'Rate limit',
  description: "The caller's request limit per window and what is left of it (this request not counted).",
  properties: {
    limit: { type: 'integer', minimum: 1, readOnly: true },
    remaining: { type: 'integer', minimum: 0, readOnly: true },
  },
  createRequired: [],
};
