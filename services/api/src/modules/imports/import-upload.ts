import { AppError, inputError } from '@pfs/errors';
import type { ObjectStorage } from '@pfs/storage';
import type { Request } from 'express';
import { mediaTypeOf, readMultipartFile, uploadTooLarge } from '../../http/multipart-file';

/** A statement streamed into storage, and the form fields that came with it. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  storageKey: string;
  size: number;
  filename?: string;
}

/** A file name as the client gave it, without any path or control characters (or none). */
function plainName(name: string | undefined): string | undefined {
  const base = (name ?? '')
    .split(/[/\\]/)
    .pop()!
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '');
  return base ? base.slice(0, 255) : undefined;
}

/**
 * Reads POST /imports: multipart/form-data with one part named `file` and the request's fields. The file
 * is streamed into storage under `storageKey` as it arrives (never held in memory), counted, and refused
 * (413) once it passes `maxBytes`. On any failure the stored bytes are removed before the error is thrown.
 */
export async function receiveImportUpload(
  req: Request,
  storage: ObjectStorage,
  storageKey: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  if (mediaTypeOf(req.get('content-type')) !== 'multipart/form-data') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
      description: 'Send the statement as multipart/form-data with one file part named file.',
    });
  }
  if (Number(req.get('content-length') ?? 0) > maxBytes + 64 * 1024) throw uploadTooLarge(maxBytes);
  try {
    return await readParts(req, storage, storageKey, maxBytes);
  } catch (error) {
    await storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

async function readParts(
  req: Request,
  storage: ObjectStorage,
  storageKey: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  const limits = { fields: 30, fieldSize: 16 * 1024 };
  const { file, fields } = await readMultipartFile(req, maxBytes, limits, async ({ stream, info }) => ({
    filename: plainName(info.filename),
    ...(await storage.write(storageKey, stream, { contentType: 'application/octet-stream' })),
  }));
  if (!file.size) throw inputError([{ field: 'file', error: 'must not be empty' }]);
  return { fields, storageKey, size: file.size, filename: file.filename };
}
