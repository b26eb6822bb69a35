import { isResourceId } from '@pfs/contracts';
import { notFound } from '@pfs/errors';
import { requestLogger } from '@pfs/http';
import { negotiateMediaType, parseEnumParam, parseListParam, updateFromRequest } from '@pfs/resource-api';
import { IMAGE_TYPES } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { fileKeysOf } from './image-files';
import { imageFileHandlers } from './image-files.routes';
import { presentImage } from './images.presenter';
import { filename, imagesListQuery } from './images.schema';
import { UPLOAD_TYPES } from './sniff-file-type';

/** The operations of /images: list, get, change filename/extra, delete; the upload and file downloads (image-files.routes.ts). */
export function imagesHandlers(deps: ApiDependencies) {
  const { upload, download } = imageFileHandlers(deps);
  const images = deps.repos.images;
  const api = deps.resourceApi;
  const present = (image: Parameters<typeof presentImage>[0]) => presentImage(image, deps.config.BASE_URL);

  const list: ApiHandler = async (ctx, req, res) => {
    const query = req.query as Record<string, unknown>;
    const params = api.parseList(req, { endpoint: 'images' });
    const result = await images.list(deps.store.read(ctx), params, {
      type: parseEnumParam(query, 'type', IMAGE_TYPES),
      ids: parseListParam(query, 'ids', isResourceId),
    });
    api.respond.sendList(req, res, { schema: 'images', params, result, present });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const image = await images.findById(deps.store.read(ctx), String(req.params.id));
    if (!image) throw notFound('Image', String(req.params.id));
    api.respond.sendObject(req, res, 'images', present(image), image.modifiedAt);
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const id = String(req.params.id);
      const updated = await updateFromRequest({
        req,
        schema: 'images',
        schemas: api.schemas,
        mode,
        update: (decide) => deps.store.change(ctx, (change) => images.update(change, id, decide)),
        toSnapshot: images.table.options.toSnapshot,
        present,
        what: 'Image',
        id,
      });
      api.respond.sendObject(req, res, 'images', present(updated), updated.modifiedAt);
    };

  const remove: ApiHandler = async (ctx, req, res) => {
    const id = String(req.params.id);
    const deleted = await deps.store.change(ctx, (change) => images.delete(change, id));
    if (!deleted) throw notFound('Image', id);
    // After the commit: the image is gone for clients either way. A file left behind by a storage
    // failure is logged with its key (the row keeps status `deleting`) for the operator to remove.
    for (const key of fileKeysOf(deleted)) {
      await deps.storage
        .delete(key)
        .catch((error: unknown) =>
          requestLogger(deps.logger, req).warn({ err: error, key }, 'could not remove a deleted image file'),
        );
    }
    api.respond.sendNoContent(res);
  };

  return { list, upload, get, replace: update('put'), patch: update('patch'), remove, download };
}

export type ImagesHandlers = ReturnType<typeof imagesHandlers>;

const resource = 'images';

export const imagesOperations: Array<DeclaredOperation<ImagesHandlers>> = [
  {
    resource,
    rel: 'list',
    href: '/images',
    method: 'GET',
    title: 'List images',
    hrefSchema: imagesListQuery,
    target: 'list',
    scope: 'images:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    href: '/images',
    method: 'POST',
    title: 'Upload one file: the raw bytes, or multipart/form-data with one part named file',
    hrefSchema: { type: 'object', properties: { filename } },
    submission: { type: 'string', format: 'binary' },
    submissionMediaTypes: [...UPLOAD_TYPES, 'multipart/form-data'],
    target: 'object',
    scope: 'images:rw',
    files: true,
    // The format of the answer is negotiated here: the upload's route runs before the app's negotiation.
    before: [negotiateMediaType],
    handler: 'upload',
  },
  {
    resource,
    rel: 'self',
    href: '/images/{id}',
    method: 'GET',
    title: 'Get an image',
    target: 'object',
    scope: 'images:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    href: '/images/{id}',
    method: 'PUT',
    title: 'Replace the filename and extra of an image',
    submission: 'update',
    target: 'object',
    scope: 'images:rw',
    handler: 'replace',
  },
  {
    resource,
    rel: 'patch',
    href: '/images/{id}',
    method: 'PATCH',
    title: 'Change the filename or extra (JSON merge patch)',
    submission: 'patch',
    target: 'object',
    scope: 'images:rw',
    handler: 'patch',
  },
  {
    resource,
    rel: 'delete',
    href: '/images/{id}',
    method: 'DELETE',
    title: 'Delete an image and its files (entries holding it drop it)',
    scope: 'images:rw',
    handler: 'remove',
  },
  {
    resource,
    rel: 'thumb-jpg',
    href: '/images/{id}/thumb.jpg',
    method: 'GET',
    title: 'The thumbnail of an image (JPEG, fits 640 × 640 px)',
    targetMediaTypes: ['image/jpeg'],
    scope: 'images:r',
    route: '/images/{id}/{file}',
    files: true,
    handler: 'download',
  },
  {
    resource,
    rel: 'full-jpg',
    href: '/images/{id}/full.jpg',
    method: 'GET',
    title: 'An image, upright, as JPEG without metadata',
    targetMediaTypes: ['image/jpeg'],
    scope: 'images:r',
    route: '/images/{id}/{file}',
    files: true,
    handler: 'download',
  },
  {
    resource,
    rel: 'document-pdf',
    href: '/images/{id}/document.pdf',
    method: 'GET',
    title: 'A PDF as uploaded',
    targetMediaTypes: ['application/pdf'],
    scope: 'images:r',
    route: '/images/{id}/{file}',
    files: true,
    handler: 'download',
  },
];
