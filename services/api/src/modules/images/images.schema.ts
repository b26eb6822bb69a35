import type { ResourceSchema } from '@pfs/resource-api';
import { UPLOAD_TYPES } from './sniff-file-type';

/** A file name: no path separators or control characters. Shared by the schema and the upload's `filename`. */
export const FILENAME_PATTERN = '^[^/\\\\\\u0000-\\u001f\\u007f]+$';
export const MAX_FILENAME_LENGTH = 255;

const filename = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_FILENAME_LENGTH,
  pattern: FILENAME_PATTERN,
  description: 'The name the user knows the file by (no path).',
};

const listQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    per_page: { type: 'integer', minimum: 10, maximum: 500, default: 200 },
    since: { type: 'string', description: 'A Service-Modified value of this endpoint.' },
    include_deleted: { type: 'boolean' },
    type: { type: 'string', enum: ['image', 'pdf'] },
    ids: { type: 'string', description: 'Comma-separated ids.' },
  },
};

const file = (name: string, types: string[], title: string) => ({
  rel: name.replace('.', '-'),
  href: `/images/{id}/${name}`,
  method: 'GET' as const,
  title,
  targetMediaTypes: types,
  scope: 'images:r',
});

export const imagesSchema: ResourceSchema = {
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
  links: [
    {
      rel: 'list',
      href: '/images',
      method: 'GET',
      title: 'List images',
      hrefSchema: listQuery,
      target: 'list',
      scope: 'images:r',
    },
    {
      rel: 'create',
      href: '/images',
      method: 'POST',
      title: 'Upload one file: the raw bytes, or multipart/form-data with one part named file',
      hrefSchema: { type: 'object', properties: { filename } },
      submission: { type: 'string', format: 'binary' },
      submissionMediaTypes: [...UPLOAD_TYPES, 'multipart/form-data'],
      target: 'object',
      scope: 'images:rw',
    },
    {
      rel: 'self',
      href: '/images/{id}',
      method: 'GET',
      title: 'Get an image',
      target: 'object',
      scope: 'images:r',
    },
    {
      rel: 'update',
      href: '/images/{id}',
      method: 'PUT',
      title: 'Replace the filename and extra of an image',
      submission: 'update',
      target: 'object',
      scope: 'images:rw',
    },
    {
      rel: 'patch',
      href: '/images/{id}',
      method: 'PATCH',
      title: 'Change the filename or extra (JSON merge patch)',
      submission: 'patch',
      target: 'object',
      scope: 'images:rw',
    },
    {
      rel: 'delete',
      href: '/images/{id}',
      method: 'DELETE',
      title: 'Delete an image and its files (entries holding it drop it)',
      scope: 'images:rw',
    },
    file('thumb.jpg', ['image/jpeg'], 'The thumbnail of an image (JPEG, fits 640 × 640 px)'),
    file('full.jpg', ['image/jpeg'], 'An image, upright, as JPEG without metadata'),
    file('document.pdf', ['application/pdf'], 'A PDF as uploaded'),
  ],
};
