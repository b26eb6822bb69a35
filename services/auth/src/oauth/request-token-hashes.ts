import { hashToken } from '@pfs/contracts';
import type { Request } from 'express';

const hashesByRequest = new WeakMap<Request, Map<string, string>>();

/**
 * The SHA-256 of a token, code or client secret this request sends, computed once per request: the client's read,
 * our checks and the library's hooks each look the same code or refresh token up by its hash (four or five times a
 * grant), and the Basic check and the library's getClient each compare the secret's. The map lives as long as the
 * request and holds only what the request itself sent.
 */
export function requestTokenHash(req: Request, token: string): string {
  let hashes = hashesByRequest.get(req);
  if (!hashes) {
    hashes = new Map();
    hashesByRequest.set(req, hashes);
  }
  let hash = hashes.get(token);
  if (hash === undefined) {
    hash = hashToken(token);
    hashes.set(token, hash);
  }
  return hash;
}
