import { hash, randomBytes, randomFillSync } from 'node:crypto';

/**
 * Tokens, codes and client secrets are stored only as this hash. They carry 256 bits of randomness,
 * so a fast hash is enough (unlike passwords) and lookups by hash stay one index probe. Node's one-shot `hash`
 * (the same SHA-256 of the UTF-8 text) costs 0.3-0.5 µs against `createHash`'s 1.2-1.6 µs (a Hash object, then
 * `update` and `digest`), and a grant hashes four values (docs/bench.md, session 9).
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * Random bytes drawn from the CSPRNG 4 kB at a time and handed out once each, as Node's own `randomUUID` does:
 * one `randomBytes(32)` costs about 2.7 µs (the call into OpenSSL, a new buffer), a slice of the pool 0.1 µs, and
 * a grant draws two tokens (docs/bench.md, "Token grants … (session 8)").
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** A new opaque credential: 32 random bytes, base64url. */
export function generateToken(bytes = 32): string {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString('base64url');
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}
