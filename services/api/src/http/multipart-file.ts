import { AppError, inputError } from '@pfs/errors';
import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';

/** The 413 of an upload over its limit. */
export const uploadTooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', {
    description: `The file is too large: at most ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(1)} MiB).`,
  });

/** The media type of a Content-Type header, lower case, without its parameters ('' when none). */
export const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

/** The one file part of a form as busboy hands it over: its bytes as they arrive, its name and type. */
export interface FilePart {
  stream: Readable;
  info: busboy.FileInfo;
}

/** The form's file, as the caller's `receive` made it, and the form's other fields. */
export interface MultipartFile<T> {
  file: T;
  fields: Record<string, string>;
}

/** How many fields besides the file a form may carry, and how long each may be (busboy's default: 1 MiB). */
export interface FormLimits {
  fields: number;
  fieldSize?: number;
}

/**
 * Reads a `multipart/form-data` request with exactly one file part named `file` (busboy): the part is handed
 * to `receive` (which reads it into memory or streams it to storage), other file parts are drained, the
 * fields are collected. A file past `maxBytes` is a 413, a second file or a malformed form a 400 naming the
 * field. On a failure it waits for `receive` to settle before rejecting, so the caller can clean up what it
 * wrote. Shared by POST /images and POST /imports.
 */
export function readMultipartFile<T>(
  req: Request,
  maxBytes: number,
  limits: FormLimits,
  receive: (part: FilePart) => Promise<T>,
): Promise<MultipartFile<T>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          files: 1,
          fileSize: maxBytes,
          fields: limits.fields,
          ...(limits.fieldSize === undefined ? {} : { fieldSize: limits.fieldSize }),
          parts: limits.fields + 1,
        },
      });
    } catch {
      reject(inputError([{ field: 'Content-Type', error: 'must be multipart/form-data with a boundary' }]));
      return;
    }
    const fields: Record<string, string> = {};
    let file: Promise<T> | undefined;
    let failure: Error | undefined;
    const settled = () =>
      (file ?? Promise.resolve()).then(
        () => undefined,
        () => undefined,
      );
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      stream.on('limit', () => {
        failure ??= uploadTooLarge(maxBytes);
      });
      file = receive({ stream, info });
      file.catch(() => undefined);
    });
    parser.on('filesLimit', () => {
      failure ??= inputError([{ field: 'file', error: 'must be the only file of the request' }]);
    });
    parser.on('error', () => {
      failure ??= inputError([{ field: '(body)', error: 'must be well-formed multipart/form-data' }]);
      req.unpipe(parser);
      req.resume();
      void settled().then(() => reject(failure));
    });
    parser.on('close', () => {
      if (!file) {
        reject(failure ?? inputError([{ field: 'file', error: 'is required (one file part named file)' }]));
        return;
      }
      file.then((received) => (failure ? reject(failure) : resolve({ file: received, fields })), reject);
    });
    req.on('aborted', () => {
      failure ??= inputError([{ field: '(body)', error: 'was interrupted before it was complete' }]);
    });
    req.pipe(parser);
  });
}
