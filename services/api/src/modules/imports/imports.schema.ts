import { IMPORT_FORMATS, IMPORT_MAPPING_FIELDS, IMPORT_STATUSES, RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ResourceDefinition } from '@pfs/resource-api';
import { syncedListParams } from '../../http/list-query';

export const importsListQuery = {
  type: 'object',
  properties: {
    ...syncedListParams(),
    status: { type: 'string', enum: [...IMPORT_STATUSES] },
  },
};

const column = { type: 'string', minLength: 1, maxLength: 200 };

/** The request fields of POST /imports (multipart form fields beside the `file` part). */
export const importRequestProperties = {
  account: {
    type: 'string',
    pattern: `^${RESOURCE_ID_PATTERN}$`,
    description: 'The account the entries go to (one of yours).',
  },
  format: {
    type: 'string',
    enum: ['auto', ...IMPORT_FORMATS],
    description: 'The file format; `auto` (default) detects it from the contents.',
  },
  dry_run: {
    type: 'boolean',
    description: 'Parse and plan only: `result` tells what would be written; nothing is.',
  },
  mapping: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(IMPORT_MAPPING_FIELDS.map((field) => [field, column])),
    description:
      'CSV only: the column (header text, or 1-based number) of each field. Needs date and amount, or date and debit/credit.',
  },
  date_format: {
    type: 'string',
    pattern: '^(?=.*(YYYY|YY))(?=.*(MM|M))(?=.*(DD|D))[YMD./ -]{4,12}$',
    description: 'CSV and QIF dates, e.g. YYYY-MM-DD (default), DD.MM.YYYY, MM/DD/YYYY, DD/MM/YY.',
  },
  decimal_separator: { type: 'string', enum: ['.', ','], description: 'Of amounts in CSV and QIF.' },
  delimiter: {
    type: 'string',
    minLength: 1,
    maxLength: 1,
    description: 'The CSV delimiter; detected among , ; tab | when absent.',
  },
  encoding: {
    type: 'string',
    enum: ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-1', 'iso-8859-15', 'windows-1250'],
    description: 'The text encoding; detected when absent.',
  },
  tag_separator: {
    type: 'string',
    minLength: 1,
    maxLength: 3,
    description: 'Between tags in one CSV cell (default ",").',
  },
};

export const importsSchema: ResourceDefinition = {
  name: 'imports',
  title: 'Import',
  description:
    'A bank statement or app export imported into one account, asynchronously: status moves uploaded → parsing → parsed → importing → imported, or to error with the line, field and reason (docs/imports.md). A dry run stops at parsed with its plan in result.',
  properties: {
    id: { type: 'string', readOnly: true },
    ...importRequestProperties,
    filename: { type: 'string', readOnly: true },
    filesize: { type: 'integer', readOnly: true },
    status: { type: 'string', enum: [...IMPORT_STATUSES], readOnly: true },
    rows_total: {
      type: 'integer',
      readOnly: true,
      description: 'Rows (transactions) in the file, once parsed.',
    },
    rows_done: { type: 'integer', readOnly: true, description: 'Rows written or skipped so far.' },
    entries_created: { type: 'integer', readOnly: true },
    duplicates: { type: 'integer', readOnly: true, description: 'Rows skipped as already present.' },
    error: {
      type: 'object',
      readOnly: true,
      properties: {
        line: { type: 'integer', description: '1-based line (CSV: the record’s first line).' },
        field: { type: 'string' },
        reason: { type: 'string' },
      },
      description: 'Why the import failed (status error).',
    },
    result: {
      type: 'object',
      readOnly: true,
      description:
        'What the import created (categories, tags) or, for a dry run, the plan: rows (the first 100), would_create, duplicates.',
    },
    created: { type: 'string', format: 'date-time', readOnly: true },
    modified: { type: 'string', readOnly: true },
    deleted: { type: 'boolean', readOnly: true },
  },
  createRequired: ['account'],
};
