import { LRUCache } from 'lru-cache';
import { AppError } from '@pfs/errors';
import type { NextFunction, Request, Response } from 'express';
import { callerOf } from './caller-context';
import type { ResponseFormat } from './response-format';

export const VENDOR_MEDIA_TYPE = 'application/vnd.service+json';
export const CURRENT_VERSION = 1;
export const SUPPORTED_VERSIONS = [1];

export type { ResponseFormat } from './response-format';

interface AcceptEntry {
  type: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

function parseAccept(header: string): AcceptEntry[] {
  return header
    .split(',')
    .map((part, order) => {
      const [type, ...rawParams] = part.split(';').map((item) => item.trim());
      const params: Record<string, string> = {};
      for (const param of rawParams) {
        const [key, value = ''] = param.split('=');
        params[key.trim().toLowerCase()] = value.trim().replace(/^"|"$/g, '');
      }
      const q = params.q === undefined ? 1 : Number(params.q);
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((entry) => entry.type && entry.q > 0);
}

/** What one Accept entry lets us send, or why it cannot be met. */
function formatFor(entry: AcceptEntry): ResponseFormat | 'bad-version' | undefined {
  if (entry.type === VENDOR_MEDIA_TYPE) {
    const version = entry.params.version;
    if (version !== undefined && !SUPPORTED_VERSIONS.includes(Number(version))) return 'bad-version';
    return 'vendor';
  }
  if (entry.type === 'application/json') return 'json';
  if (entry.type === '*/*' || entry.type === 'application/*') return 'vendor';
  return undefined;
}

/** Formats negotiated, by Accept value; the least recently used go first, so odd values cost only a parse. */
const negotiated = new LRUCache<string, ResponseFormat>({ max: 1_000 });

/**
 * Picks the response format from Accept: absent or vendor type (version 1 or none: the newest) gives
 * the vendor type, `application/json` gives plain JSON. Anything else, or an unknown version, is a 406.
 */
export function negotiateFormat(accept: string | undefined): ResponseFormat {
  if (!accept || !accept.trim()) return 'vendor';
  // A client sends the same Accept on every request: parsed once per distinct value (a 406 is not kept).
  let format = negotiated.get(accept);
  if (format === undefined) {
    format = negotiate(accept);
    negotiated.set(accept, format);
  }
  return format;
}

function negotiate(accept: string): ResponseFormat {
  const entries = parseAccept(accept).sort((a, b) => b.q - a.q || a.order - b.order);
  let badVersion = false;
  for (const entry of entries) {
    const format = formatFor(entry);
    if (format === 'bad-version') badVersion = true;
    else if (format) return format;
  }
  throw new AppError('NOT_ACCEPTABLE', {
    description: badVersion
      ? `This API version is not available; supported: ${SUPPORTED_VERSIONS.join(', ')} (current ${CURRENT_VERSION}).`
      : `Only JSON is produced: accept ${VENDOR_MEDIA_TYPE} or application/json.`,
  });
}

/**
 * Records the format negotiated from Accept in the request's context, before anything else answers, so
 * 406 comes first. Mounted after authentication (every answer carries the rate-limit headers).
 */
export function negotiateMediaType(req: Request, _res: Response, next: NextFunction): void {
  callerOf(req).format = negotiateFormat(req.get('accept'));
  next();
}

/** The Content-Type of a resource response: the vendor type with its schema profile, or plain JSON. */
export function contentTypeFor(format: ResponseFormat | undefined, baseUrl: string, schema: string): string {
  if (format === 'json') return 'application/json; charset=utf-8';
  return `${VENDOR_MEDIA_TYPE}; profile=${baseUrl}/schema/${schema}#`;
}

const JSON_BODY_TYPES = [VENDOR_MEDIA_TYPE, 'application/json', 'application/merge-patch+json'];

function hasBody(req: Request): boolean {
  return req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
}

/** Only JSON is accepted: a body of another type is a 415 (before parsing, so nothing else reads it). */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (hasBody(req)) {
    const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!JSON_BODY_TYPES.includes(type)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
        description: `Send JSON: Content-Type ${VENDOR_MEDIA_TYPE} or application/json.`,
      });
    }
  }
  next();
}

/** The body-parser `type` option matching the types above. */
export const jsonBodyTypes = JSON_BODY_TYPES;
