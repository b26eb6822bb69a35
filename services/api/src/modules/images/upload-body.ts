import { AppError, inputError } from '@pfs/errors';
import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { isUploadType, UPLOAD_TYPES } from './sniff-file-type';

/** One uploaded file as the client sent it, before its bytes are checked. */
export interface UploadedFile {
  bytes: Buffer;
  /** The type the client declared (Content-Type, or the multipart part's type); undefined when it gave none. */
  declaredType?: string;
  /** The multipart part's file name, if any. */
  filename?: string;
  /** Which request field a type mismatch is reported on. */
  typeField: 'Content-Type' | 'file';
}

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', {
    description: `The file is too large: at most ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(1)} MiB).`,
  });

const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

/** Reads a stream into memory, refusing it (413) as soon as it passes `maxBytes`. */
async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // The rest of the body is discarded by Node once the 413 is sent (the connection stays usable).
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The client went away mid-upload: its fault, not a server fault worth an error log.
    throw inputError([{ field: '(body)', error: 'was interrupted before it was complete' }]);
  }
  return Buffer.concat(chunks, size);
}

/** `multipart/form-data` with exactly one file part named `file` (other parts are ignored). */
function readMultipart(req: Request, maxBytes: number): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes, fields: 20, parts: 21 },
      });
    } catch {
      reject(inputError([{ field: 'Content-Type', error: 'must be multipart/form-data with a boundary' }]));
      return;
    }
    let file: Promise<UploadedFile> | undefined;
    let failure: Error | undefined;
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      stream.on('limit', () => {
        failure ??= tooLarge(maxBytes);
        stream.resume();
      });
      const declared = mediaTypeOf(info.mimeType);
      file = readLimited(stream, Number.MAX_SAFE_INTEGER).then((bytes) => ({
        bytes,
        // Browsers send application/octet-stream for a type they do not know: that declares nothing.
        declaredType: declared && declared !== 'application/octet-stream' ? declared : undefined,
        filename: info.filename || undefined,
        typeField: 'file' as const,
      }));
      file.catch(() => undefined);
    });
    parser.on('filesLimit', () => {
      failure ??= inputError([{ field: 'file', error: 'must be the only file of the request' }]);
    });
    parser.on('error', () => {
      failure ??= inputError([{ field: '(body)', error: 'must be well-formed multipart/form-data' }]);
      req.unpipe(parser);
      req.resume();
      reject(failure);
    });
    parser.on('close', () => {
      if (failure) return reject(failure);
      if (!file)
        return reject(inputError([{ field: 'file', error: 'is required (one file part named file)' }]));
      file.then(resolve, reject);
    });
    req.pipe(parser);
  });
}

/**
 * The uploaded file of POST /images: a raw body of an accepted type, or a multipart form with a `file`
 * part. A declared Content-Length over the limit is refused before reading anything; a body that turns
 * out longer is refused as soon as it passes the limit. Other body types are a 415.
 */
export async function readUpload(req: Request, maxBytes: number): Promise<UploadedFile> {
  const type = mediaTypeOf(req.get('content-type'));
  if (Number(req.get('content-length') ?? 0) > maxBytes + (type === 'multipart/form-data' ? 64 * 1024 : 0)) {
    throw tooLarge(maxBytes);
  }
  if (type === 'multipart/form-data') return readMultipart(req, maxBytes);
  if (!isUploadType(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
      description: `Send the file as Content-Type ${UPLOAD_TYPES.join(', ')}, or as multipart/form-data with a file part.`,
    });
  }
  const bytes = await readLimited(req, maxBytes);
  if (!bytes.length) throw inputError([{ field: '(body)', error: 'must be the file (the body is empty)' }]);
  return { bytes, declaredType: type, typeField: 'Content-Type' };
}
