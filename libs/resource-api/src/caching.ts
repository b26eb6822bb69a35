import { createHash } from 'node:crypto';
import type { Request } from 'express';

/** A response body serialised once, with its validators: ready to send, or to store in a cache. */
export interface PreparedRepresentation {
  /** The JSON text; empty in a stored page, which keeps `bytes` only. */
  body: string;
  /** `body` encoded (UTF-8) once: what is hashed for the ETag, sent, and kept by a stored page. */
  bytes?: Buffer;
  etag: string;
  lastModified?: Date;
}

/** A strong ETag derived from the exact bytes of the representation (a text is hashed as its UTF-8 bytes). */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** The last date formatted: a held `/me` or page sends the same Last-Modified request after request. */
let lastFormatted = { time: Number.NaN, text: '' };

/** HTTP dates have whole seconds. */
export function httpDate(date: Date): string {
  const time = date.getTime();
  if (time !== lastFormatted.time) lastFormatted = { time, text: date.toUTCString() };
  return lastFormatted.text;
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  // If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored.
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * True when the client's cached copy is current: If-None-Match against the ETag, or, only when no
 * If-None-Match was sent, If-Modified-Since against Last-Modified (RFC 9110 13.2.2 precedence).
 * Callers evaluate this only after authentication, scope and existence checks have passed.
 */
export function isNotModified(req: Request, etag: string, lastModified?: Date): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const ifNoneMatch = req.get('if-none-match');
  if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, etag);
  const ifModifiedSince = req.get('if-modified-since');
  if (!ifModifiedSince || !lastModified) return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
