import {
  EXPORT_FORMATS,
  EXPORT_RESOURCES,
  EXPORT_STATUSES,
  EXPORT_TYPES,
  RESOURCE_ID_PATTERN,
} from '@pfs/contracts';
import type { ResourceDefinition, WriteBodyOf } from '@pfs/resource-api';
import { syncedListParams } from '../../http/list-query';

/** A filter's ids: at most 500 (an unknown member of a filter object is refused: additionalProperties). */
const ids = {
  type: 'array',
  maxItems: 500,
  items: { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` },
} as const;
const locations = {
  type: 'array',
  maxItems: 500,
  items: { type: 'string', minLength: 1, maxLength: 100 },
} as const;
const perResource = {
  type: 'object',
  additionalProperties: false,
  properties: { categories: ids, '!categories': ids, tags: ids, '!tags': ids },
} as const;
/** A real calendar date (format) from 1900-01-01 to 2999-12-31 (pattern). */
const date = { type: 'string', format: 'date', pattern: '^(19|2[0-9])[0-9]{2}-' } as const;

export const exportsListQuery = {
  type: 'object',
  properties: {
    ...syncedListParams(),
    status: { type: 'string', enum: [...EXPORT_STATUSES] },
    type: { type: 'string', enum: [...EXPORT_TYPES] },
  },
};

const properties = {
  id: { type: 'string', readOnly: true },
  type: { type: 'string', enum: EXPORT_TYPES },
  resources: { type: 'array', items: { type: 'string', enum: EXPORT_RESOURCES }, uniqueItems: true },
  formats: { type: 'array', items: { type: 'string', enum: EXPORT_FORMATS }, uniqueItems: true },
  filters: {
    type: 'object',
    additionalProperties: false,
    properties: {
      accounts: ids,
      '!accounts': ids,
      locations,
      '!locations': locations,
      expenses: perResource,
      incomes: perResource,
    },
  },
  from: date,
  to: date,
  created: { type: 'string', format: 'date-time', readOnly: true },
  modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
  status: { type: 'string', enum: [...EXPORT_STATUSES], readOnly: true },
  error: {
    type: 'string',
    readOnly: true,
    description: 'Why the export failed (status error), for the user.',
  },
  seen: { type: 'boolean' },
  data: {
    type: 'object',
    readOnly: true,
    properties: {
      path: { type: 'string', description: 'Signed download address; works until valid_until.' },
      filename: { type: 'string' },
      filesize: { type: 'integer' },
      valid_until: { type: 'string', format: 'date-time' },
    },
  },
  deleted: { type: 'boolean', readOnly: true },
} as const;

const createRequired = ['type'] as const;
/** A POST /exports body once the published schema validated it. */
export type ExportRequestBody = WriteBodyOf<typeof properties, typeof createRequired>;

export const exportsSchema: ResourceDefinition = {
  name: 'exports',
  title: 'Export',
  description:
    "An export of the user's data, generated asynchronously: status moves generating → generated → sending → sent, or to error (see docs/exports.md). Only `seen` changes after creation.",
  properties,
  createRequired: [...createRequired],
  updateRequired: ['seen'],
};
