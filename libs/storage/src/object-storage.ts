import type { Readable } from 'node:stream';

/** A signed link to one stored object, and when it stops working. */
export interface DownloadLink {
  url: string;
  expiresAt: Date;
}

export interface WriteOptions {
  contentType?: string;
}

/**
 * An object opened for reading: the file (or the S3 response) is already open when this is handed out, so
 * deleting the object meanwhile cannot fail the stream; its bytes keep flowing.
 */
export interface OpenedObject {
  body: Readable;
  /** Size in bytes of the opened object. */
  size: number;
}

export interface DownloadLinkOptions {
  /** Seconds the link stays valid. */
  expiresInSeconds: number;
  /** The name a browser saves the file under. */
  filename: string;
}

/**
 * The object-storage port: everything the services need of a blob store, streamed both ways so no
 * object is ever held in memory. Keys are slash-separated paths of safe segments (see assertSafeKey).
 */
export interface ObjectStorage {
  readonly driver: 'fs' | 's3';
  /** Stores the stream under key (replacing any object there); resolves with the bytes written. */
  write(key: string, body: Readable, options?: WriteOptions): Promise<{ size: number }>;
  /**
   * Opens the object and streams it; rejects with ObjectNotFoundError when there is none. The object is
   * open before the promise resolves (never opened lazily later), so a delete racing the read cannot turn
   * into an unhandled `ENOENT` on a stream nobody listens to yet.
   */
  read(key: string): Promise<OpenedObject>;
  /** Size in bytes, or undefined when the object does not exist. */
  size(key: string): Promise<number | undefined>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes what killed writers left behind (fs: `*.partial` files; s3: incomplete multipart uploads)
   * started before `olderThan`; a live write keeps its file fresh, so it is never removed. Returns the count.
   */
  sweepAbandonedWrites(olderThan: Date): Promise<number>;
  /** Removes every object under `prefix/` (a user's folder when their account is deleted); resolves with how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /** A link that downloads this one object, and only it, until it expires. */
  createDownloadLink(key: string, options: DownloadLinkOptions): Promise<DownloadLink>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no stored object at ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Refuses keys that could escape the storage root or confuse a URL: only safe segments, no `..`. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  if (!segments.length || segments.some((segment) => !SEGMENT.test(segment) || segment.includes('..'))) {
    throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  }
}

/** Links expire on a whole second (JWT `exp` and S3 `X-Amz-Expires` both count in seconds). */
export function linkExpiry(expiresInSeconds: number, now: Date = new Date()): Date {
  return new Date((Math.floor(now.getTime() / 1000) + expiresInSeconds) * 1000);
}
