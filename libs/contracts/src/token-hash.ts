import { createHash, randomBytes } from 'node:crypto';

/**
 * Tokens, codes and client secrets are stored only as this hash. They carry 256 bits of randomness,
 * so a fast hash is enough (unlike passwords) and lookups by hash stay one index probe.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new opaque credential: 32 random bytes, base64url. */
export function generateToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
