import type { ResourceDefinition } from '@pfs/resource-api';
import { syncedListParams } from '../../http/list-query';

/** A file name: no path separators or control characters. Shared by the schema and the upload's `filename`. */
export const FILENAME_PATTERN = '^[^/\\\\\\u0000-\\u001f\\u007f]+$';
export const MAX_FILENAME_LENGTH = 255;

export const filename = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_FILENAME_LENGTH,
  pattern: FILENAME_PATTERN,
  description: 'The name the user knows the file by (no path).',
};

export const imagesListQuery = {
  type: 'object',
  properties: {
    ...syncedListParams(),
    type: { type: 'string', enum: ['image', 'pdf'] },
    ids: { type: 'string', description: 'Comma-separated ids.' },
  },
};

export const imagesSchema: ResourceDefinition = {
  name: 'images',
  title: 'Image',
  description:
    'An uploaded image (JPEG, PNG, WebP) or PDF, e.g. a receipt, attached to entries through `entry.images`. ' +
    'Files are served at `path` + `thumb.jpg` (fits 640 px) and `full.jpg` for an image, `document.pdf` for a PDF.',
  properties: {
    id: { type: 'string', readOnly: true },
    path: {
      type: 'string',
      readOnly: true,
      description: 'URL base of the files: append thumb.jpg or full.jpg (an image), document.pdf (a PDF).',
    },
    filename,
    type: { type: 'string', enum: ['image', 'pdf'], readOnly: true },
    status: { type: 'string', enum: ['new', 'uploaded', 'error', 'deleting'], readOnly: true },
    size: { type: 'integer', minimum: 0, readOnly: true, description: 'Bytes of the file as uploaded.' },
    created: { type: 'string', format: 'date-time', readOnly: true },
    modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
    deleted: { type: 'boolean', readOnly: true },
    extra: { type: 'object', description: 'Any JSON the application stores; returned unchanged (≤16 KiB).' },
  },
  createRequired: [],
  updateRequired: [],
};
