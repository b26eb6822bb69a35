import { AppError, notFound } from '@pfs/errors';
import { requestLogger } from '@pfs/http';
import { contentTypeFor, isNotModified } from '@pfs/resource-api';
import { createHash } from 'node:crypto';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { idempotentPost } from '../../http/idempotent-post';
import { sendStoredObject } from '../../http/send-stored-object';
import { FILE_CONTENT_TYPES, fileKey, IMAGE_FILES } from './image-files';
import { presentImage } from './images.presenter';
import { readFilename } from './upload-filename';
import { readUpload } from './upload-body';
import { renderUpload, uploadImage } from './upload-image.use-case';

/**
 * The handlers whose bodies are files: the upload (raw bytes or multipart) and the file downloads. Their
 * operations are `files` ones, mounted before the JSON-only checks of the app; downloads are authenticated
 * like every route (bearer token with images:r), so a file is only ever served to its owner.
 */
export function imageFileHandlers(deps: ApiDependencies): { upload: ApiHandler; download: ApiHandler } {
  const images = deps.repos.images;
  const idempotent = idempotentPost(deps);

  const upload: ApiHandler = async (ctx, req, res) => {
    const queryFilename = readFilename(req.query.filename, 'filename');
    const file = await readUpload(req, deps.config.IMAGE_MAX_BYTES);
    const filename = queryFilename ?? readFilename(file.filename, 'file', { lenient: true });
    // What an Idempotency-Key remembers of an upload: the file's digest, not its bytes.
    req.body = {
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      type: file.declaredType,
      filename,
    };
    const upload = await renderUpload({ ...file, filename });
    await idempotent(req, res, async (change) => {
      const image = await uploadImage(
        { images, storage: deps.storage, logger: requestLogger(deps.logger, req) },
        change,
        upload,
      );
      return {
        status: 201,
        headers: {
          Location: `${deps.config.BASE_URL}/images/${image.id}`,
          'Content-Type': contentTypeFor(ctx.format, deps.config.BASE_URL, 'images'),
        },
        body: presentImage(image, deps.config.BASE_URL),
      };
    });
  };

  const download: ApiHandler = async (ctx, req, res) => {
    const id = String(req.params.id);
    const name = String(req.params.file);
    const image = await images.findById(deps.store.read(ctx), id);
    if (!image) throw notFound('Image', id);
    if (!IMAGE_FILES[image.type].includes(name)) {
      throw new AppError('OBJECT_NOT_FOUND', {
        description: `Image ${id} has no file ${name}; its files are ${IMAGE_FILES[image.type].join(', ')}.`,
      });
    }
    // A storage folder is never rewritten, so its name identifies the bytes: a strong ETag without reading them.
    const etag = `"${image.storagePrefix.split('/').pop()}-${name}"`;
    const caching = { ETag: etag, 'Cache-Control': 'private, max-age=31536000, immutable' };
    if (isNotModified(req, etag)) {
      res.set(caching);
      ctx.onNotModified?.();
      res.status(304).end();
      return;
    }
    await sendStoredObject(
      deps.storage,
      fileKey(image.storagePrefix, name),
      res,
      {
        ...caching,
        'Content-Type': FILE_CONTENT_TYPES[name],
        // A PDF is offered as a download rather than rendered on the API's origin.
        'Content-Disposition': name.endsWith('.pdf') ? 'attachment' : 'inline',
      },
      () => notFound('Image file', `${id}/${name}`),
    );
  };

  return { upload, download };
}
