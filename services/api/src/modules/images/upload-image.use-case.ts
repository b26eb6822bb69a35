import { inputError } from '@pfs/errors';
import type { ImageRecord, ImageRepository, UserChange } from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';
import type { Logger } from '@pfs/logger';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileKey } from './image-files';
import { renderImage } from './image-renditions';
import { sniffFileType } from './sniff-file-type';
import type { UploadedFile } from './upload-body';

export interface UploadImageDeps {
  images: ImageRepository;
  storage: ObjectStorage;
  logger: Logger;
}

/**
 * What the bytes really are. The client's declared type must agree with them (a PNG sent as image/jpeg
 * is refused, not silently accepted); HEIC and unknown formats are refused with the rule they break.
 */
function checkedType(file: UploadedFile): 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf' {
  const sniffed = sniffFileType(file.bytes);
  if (sniffed === 'image/heic') {
    throw inputError([
      { field: '(body)', error: 'must be JPEG, PNG, WebP or PDF (HEIC/HEIF is not supported)' },
    ]);
  }
  if (!sniffed) throw inputError([{ field: '(body)', error: 'must be a JPEG, PNG or WebP image, or a PDF' }]);
  if (file.declaredType !== undefined && file.declaredType !== sniffed) {
    throw inputError([
      { field: file.typeField, error: `must match the file's contents, which are ${sniffed}` },
    ]);
  }
  return sniffed;
}

/** An upload checked and rendered, ready to store: no side effect yet. */
export interface RenderedUpload {
  contentType: ReturnType<typeof checkedType>;
  files: Record<string, Buffer>;
  size: number;
  filename?: string;
}

/**
 * POST /images, first step (outside the change: rendering holds no database connection): checks the file
 * and renders an image's JPEGs (a PDF is stored as is).
 */
export async function renderUpload(file: UploadedFile & { filename?: string }): Promise<RenderedUpload> {
  const contentType = checkedType(file);
  const files: Record<string, Buffer> =
    contentType === 'application/pdf'
      ? { 'document.pdf': file.bytes }
      : await renderImage(file.bytes).then((renditions) => ({
          'thumb.jpg': renditions.thumb,
          'full.jpg': renditions.full,
        }));
  return { contentType, files, size: file.bytes.length, filename: file.filename };
}

/**
 * POST /images, in the change: writes the files, then records the image. Nothing is recorded unless every
 * file is stored, and the files are removed when the change does not commit (a failed write, a database
 * that died before the commit), so no file outlives its row's rollback. The row is written once,
 * `uploaded`: processing happens within the request, so `new` and `error` (the reference's asynchronous
 * states) are never seen on images created here.
 */
export async function uploadImage(
  deps: UploadImageDeps,
  change: UserChange,
  upload: RenderedUpload,
): Promise<ImageRecord> {
  const { contentType } = upload;
  // A fresh folder per upload: written before the row exists, and never overwritten afterwards.
  const storagePrefix = `images/${change.userId}/${randomBytes(12).toString('hex')}`;
  const written: string[] = [];
  change.onRollback(() =>
    Promise.all(written.map((key) => deps.storage.delete(key))).then(
      () => undefined,
      (cleanup: unknown) =>
        deps.logger.warn({ err: cleanup, storagePrefix }, 'could not remove the files of a failed upload'),
    ),
  );
  for (const [name, bytes] of Object.entries(upload.files)) {
    const key = fileKey(storagePrefix, name);
    written.push(key);
    await deps.storage.write(key, Readable.from([bytes]), {
      contentType: contentType === 'application/pdf' ? contentType : 'image/jpeg',
    });
  }
  return deps.images.create(change, {
    type: contentType === 'application/pdf' ? 'pdf' : 'image',
    status: 'uploaded',
    filename: upload.filename,
    size: upload.size,
    contentType,
    storagePrefix,
  });
}
