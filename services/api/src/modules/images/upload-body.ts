import { AppError, inputError } from '@pfs/errors';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { mediaTypeOf, readMultipartFile, uploadTooLarge } from '../../http/multipart-file';
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

/** Reads a stream into memory, refusing it (413) as soon as it passes `maxBytes`. */
async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // The rest of the body is discarded by Node once the 413 is sent (the connection stays usable).
      if (size > maxBytes) throw uploadTooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The client went away mid-upload: its fault, not a server fault worth an error log.
    throw inputError([{ field: '(body)', error: 'was interrupted before it was complete' }]);
  }
  return Buffer.concat(chunks, size);
}

/** `multipart/form-data` with exactly one file part named `file` (other fields are ignored). */
async function readMultipart(req: Request, maxBytes: number): Promise<UploadedFile> {
  const { file } = await readMultipartFile(req, maxBytes, { fields: 20 }, async ({ stream, info }) => {
    stream.on('limit', () => stream.resume());
    const declared = mediaTypeOf(info.mimeType);
    return {
      bytes: await readLimited(stream, Number.MAX_SAFE_INTEGER),
      // Browsers send application/octet-stream for a type they do not know: that declares nothing.
      declaredType: declared && declared !== 'application/octet-stream' ? declared : undefined,
      filename: info.filename || undefined,
      typeField: 'file' as const,
    };
  });
  return file;
}

/**
 * The uploaded file of POST /images: a raw body of an accepted type, or a multipart form with a `file`
 * part. A declared Content-Length over the limit is refused before reading anything; a body that turns
 * out longer is refused as soon as it passes the limit. Other body types are a 415.
 */
export async function readUpload(req: Request, maxBytes: number): Promise<UploadedFile> {
  const type = mediaTypeOf(req.get('content-type'));
  if (Number(req.get('content-length') ?? 0) > maxBytes + (type === 'multipart/form-data' ? 64 * 1024 : 0)) {
    throw uploadTooLarge(maxBytes);
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
