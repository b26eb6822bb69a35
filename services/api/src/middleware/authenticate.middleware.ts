import {
  AccessTokenRecord,
  accessTokenKey,
  hashToken,
  parseAccessTokenRecord,
  parseScope,
} from '@pfs/contracts';
import { AppError } from '@pfs/errors';
import type { Redis } from '@pfs/redis';
import type { NextFunction, Request, Response } from 'express';

/** Who the request acts for, as the token's introspection record says. */
export interface AuthContext {
  userId: string;
  clientId?: string;
  scopes: string[];
  kind: AccessTokenRecord['kind'];
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

const CHALLENGE = 'Bearer realm="pfs"';

function unauthenticated(description: string, error?: string): AppError {
  const challenge = error ? `${CHALLENGE}, error="${error}"` : CHALLENGE;
  return new AppError('UNAUTHENTICATED', { description, headers: { 'WWW-Authenticate': challenge } });
}

/** Reads the token from `Authorization: Bearer …`, or HTTP Basic with the token as user name (personal tokens). */
export function extractToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ', 2);
  if (!value) return undefined;
  if (scheme.toLowerCase() === 'bearer') return value.trim();
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    return separator === -1 ? decoded : decoded.slice(0, separator);
  }
  return undefined;
}

/**
 * Authenticates against the introspection record the auth service wrote to Redis: one GET by the
 * token's hash, never a call to the auth service. A revoked token's record is gone, so it fails at once.
 */
export function authenticate(redis: Redis) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const token = extractToken(req.get('authorization'));
    if (!token) throw unauthenticated('Authentication is required: send Authorization: Bearer <token>.');
    const record = parseAccessTokenRecord(await redis.get(accessTokenKey(hashToken(token))));
    if (!record || (record.exp !== undefined && record.exp * 1000 <= Date.now())) {
      throw unauthenticated('The access token is invalid, expired or revoked.', 'invalid_token');
    }
    req.auth = {
      userId: record.sub,
      clientId: record.client_id,
      scopes: parseScope(record.scope),
      kind: record.kind,
    };
    next();
  };
}
