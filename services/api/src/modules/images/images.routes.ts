import { isResourceId } from '@pfs/contracts';
import { notFound } from '@pfs/errors';
import { parseEnumParam, parseListParam, requireScope, updateFromRequest, userIdOf } from '@pfs/resource-api';
import { IMAGE_TYPES, ImageRepository, imagesTable } from '@pfs/resource-store';
import { Request, Response, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { fileKeysOf } from './image-files';
import { presentImage } from './images.presenter';

/** The JSON routes of /images: list, get, change filename/extra, delete. Uploads and files: image-files.routes.ts. */
export function imagesRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const images = new ImageRepository(deps.dataSource);
  const api = deps.resourceApi;
  const present = (image: Parameters<typeof presentImage>[0]) => presentImage(image, deps.config.BASE_URL);

  router.get('/images', requireScope('images:r'), async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const params = api.parseList(req, { endpoint: 'images' });
    const result = await images.list(userIdOf(req), params, {
      type: parseEnumParam(query, 'type', IMAGE_TYPES),
      ids: parseListParam(query, 'ids', isResourceId),
    });
    api.respond.sendList(req, res, { schema: 'images', params, result, present });
  });

  router.get('/images/:id', requireScope('images:r'), async (req, res) => {
    const image = await images.findById(userIdOf(req), String(req.params.id));
    if (!image) throw notFound('Image', String(req.params.id));
    api.respond.sendObject(req, res, 'images', present(image), image.modifiedAt);
  });

  const update = (mode: 'put' | 'patch') => async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    const id = String(req.params.id);
    const updated = await updateFromRequest({
      req,
      schema: 'images',
      schemas: api.schemas,
      mode,
      update: (decide) => images.update(userId, id, decide),
      toSnapshot: imagesTable.options.toSnapshot,
      present,
      what: 'Image',
      id,
    });
    api.respond.sendObject(req, res, 'images', present(updated), updated.modifiedAt);
  };
  router.put('/images/:id', requireScope('images:rw'), update('put'));
  router.patch('/images/:id', requireScope('images:rw'), update('patch'));

  router.delete('/images/:id', requireScope('images:rw'), async (req, res) => {
    const deleted = await images.delete(userIdOf(req), String(req.params.id));
    if (!deleted) throw notFound('Image', String(req.params.id));
    // After the commit: the image is gone for clients either way. A file left behind by a storage
    // failure is logged with its key (the row keeps status `deleting`) for the operator to remove.
    for (const key of fileKeysOf(deleted)) {
      await deps.storage
        .delete(key)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, key }, 'could not remove a deleted image file'),
        );
    }
    api.respond.sendNoContent(res);
  });

  return router;
}
