import type { AppError } from '@pfs/errors';
import { ObjectNotFoundError, type ObjectStorage } from '@pfs/storage';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';

/**
 * Streams one stored file as the response. The object is opened before any header is written, so a file
 * that vanished answers `notFound()` as JSON; once open, a delete cannot break the stream. The stream's
 * errors are handled from the moment it exists (pipeline), so a storage fault mid-body ends the response,
 * never the process.
 */
export async function sendStoredObject(
  storage: ObjectStorage,
  key: string,
  res: Response,
  headers: Record<string, string>,
  notFound: () => AppError,
): Promise<void> {
  let opened;
  try {
    opened = await storage.read(key);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw notFound();
    throw error;
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', String(opened.size));
  // A client that goes away mid-download is no error of ours: pipeline closes the file either way.
  await pipeline(opened.body, res).catch(() => undefined);
}
