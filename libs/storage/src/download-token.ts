import jwt from 'jsonwebtoken';

/** Audience of download tokens, so no other token signed with the same secret is accepted as one. */
const AUDIENCE = 'pfs-export-file';

/** Signs a token that unlocks exactly one storage key until it expires (HS256). */
export function signDownloadToken(secret: string, key: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return jwt.sign({ key, exp }, secret, { algorithm: 'HS256', audience: AUDIENCE });
}

export type DownloadTokenCheck = { valid: true } | { valid: false; reason: 'expired' | 'invalid' };

/**
 * Checks a download token against the key being fetched: the signature, the expiry, and that it was
 * issued for this key (a link to one file never opens another).
 */
export function verifyDownloadToken(
  secret: string,
  key: string,
  token: string,
  now: Date = new Date(),
): DownloadTokenCheck {
  try {
    const payload = jwt.verify(token, secret, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      clockTimestamp: Math.floor(now.getTime() / 1000),
    });
    if (typeof payload !== 'object' || payload.key !== key) return { valid: false, reason: 'invalid' };
    return { valid: true };
  } catch (error) {
    return { valid: false, reason: (error as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}
