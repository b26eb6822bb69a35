import { AppError, inputError } from '@pfs/errors';
import type { ObjectStorage } from '@pfs/storage';
import busboy from 'busboy';
import type { Request } from 'express';

/** A statement streamed into storage, and the form fields that came with it. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  storageKey: string;
  size: number;
  filename?: string;
}

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', {
    description: `The file is too large: at most ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(1)} MiB).`,
  });

const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

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
  if (Number(req.get('content-length') ?? 0) > maxBytes + 64 * 1024) throw tooLarge(maxBytes);
  try {
    return await readParts(req, storage, storageKey, maxBytes);
  } catch (error) {
    await storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

function readParts(
  req: Request,
  storage: ObjectStorage,
  storageKey: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes, fields: 30, fieldSize: 16 * 1024, parts: 31 },
      });
    } catch {
      reject(inputError([{ field: 'Content-Type', error: 'must be multipart/form-data with a boundary' }]));
      return;
    }
    const fields: Record<string, string> = {};
    let written: Promise<{ size: number }> | undefined;
    let filename: string | undefined;
    let failure: Error | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || written) {
        stream.resume();
        return;
      }
      filename = plainName(info.filename);
      stream.on('limit', () => {
        failure ??= tooLarge(maxBytes);
      });
      written = storage.write(storageKey, stream, { contentType: 'application/octet-stream' });
      written.catch(() => undefined);
    });
    parser.on('filesLimit', () => {
      failure ??= inputError([{ field: 'file', error: 'must be the only file of the request' }]);
    });
    parser.on('error', () => {
      failure ??= inputError([{ field: '(body)', error: 'must be well-formed multipart/form-data' }]);
      req.unpipe(parser);
      req.resume();
      (written ?? Promise.resolve()).then(
        () => reject(failure),
        () => reject(failure),
      );
    });
    parser.on('close', () => {
      if (!written) {
        reject(failure ?? inputError([{ field: 'file', error: 'is required (one file part named file)' }]));
        return;
      }
      written.then(({ size }) => {
        if (failure) return reject(failure);
        if (!size) return reject(inputError([{ field: 'file', error: 'must not be empty' }]));
        resolve({ fields, storageKey, size, filename });
      }, reject);
    });
    req.on('aborted', () => {
      failure ??= inputError([{ field: '(body)', error: 'was interrupted before it was complete' }]);
    });
    req.pipe(parser);
  });
}
