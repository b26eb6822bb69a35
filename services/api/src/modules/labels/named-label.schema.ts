import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ResourceDefinition } from '@pfs/resource-api';
import { syncedListParams } from '../../http/list-query';

/** A resource id, as a property or a submission field. */
export const labelId = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` } as const;

/** A label id in a merge body: a string of digits or, as existing clients send it, the same number. */
export const mergeLabelId = {
  type: ['string', 'integer'],
  pattern: `^${RESOURCE_ID_PATTERN}$`,
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
} as const;

/** The labels a merge takes: 1 to 500 ids (strings or numbers). */
export const mergeLabelIds = { type: 'array', minItems: 1, maxItems: 500, items: mergeLabelId } as const;

/** The counts of a label's uses: one non-negative integer per kind, in the order given. */
export const countsOf = (keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, { type: 'integer', minimum: 0 }]));

/** The list query of a named label: paging and sync, its type, a name search and ids, then its own parameters. */
export function labelListQuery(options: {
  defaultPerPage: number;
  types: string[];
  more?: Record<string, unknown>;
}) {
  return {
    type: 'object',
    properties: {
      ...syncedListParams({ defaultPerPage: options.defaultPerPage }),
      type: { type: 'string', enum: options.types },
      search: { type: 'string' },
      ids: { type: 'string', description: 'Comma-separated ids.' },
      ...options.more,
    },
  };
}

/**
 * The schema of a named label: a name, a type and what the resource adds after it (a tag's category),
 * then the fields every label has. The property order is the published one.
 */
export function labelSchema(options: {
  name: string;
  title: string;
  description: string;
  type: Record<string, unknown>;
  afterType?: Record<string, unknown>;
  counts: Record<string, unknown>;
}): ResourceDefinition {
  return {
    name: options.name,
    title: options.title,
    description: options.description,
    properties: {
      id: { type: 'string', readOnly: true },
      name: { type: 'string', minLength: 1, maxLength: 100 },
      type: options.type,
      ...options.afterType,
      modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
      deleted: { type: 'boolean', readOnly: true },
      counts: { type: 'object', readOnly: true, properties: options.counts },
      extra: {
        type: 'object',
        description: 'Any JSON the application stores; returned unchanged (≤16 KiB).',
      },
    },
    createRequired: ['name', 'type'],
    updateRequired: ['name', 'type'],
  };
}
