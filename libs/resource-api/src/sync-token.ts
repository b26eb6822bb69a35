import { AppError } from '@pfs/errors';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Service-Modified values and pagination cursors are signed, so the server can tell a value it issued
 * from one a client made up (spec: "never make up their own"; a made-up one is a 400). The signature binds
 * the user and the endpoint: each endpoint has its own values, and one user's value is meaningless to another.
 */
export class SyncTokens {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('the sync token secret must be at least 16 characters');
  }

  private mac(userId: string, endpoint: string, payload: string): string {
    return createHmac('sha256', this.secret)
      .update(`${userId}|${endpoint}|${payload}`)
      .digest('base64url')
      .slice(0, 22);
  }

  /** Signs `payload` (digits and dots only) for one user and endpoint: `<payload>.<mac>`. */
  sign(userId: string, endpoint: string, payload: string): string {
    return `${payload}.${this.mac(userId, endpoint, payload)}`;
  }

  /** Returns the payload of a value this server signed for this user and endpoint, or undefined. */
  verify(userId: string, endpoint: string, token: string): string | undefined {
    const cut = token.lastIndexOf('.');
    if (cut <= 0 || token.length > 200) return undefined;
    const payload = token.slice(0, cut);
    if (!/^[0-9.]+$/.test(payload)) return undefined;
    const given = Buffer.from(token.slice(cut + 1));
    const expected = Buffer.from(this.mac(userId, endpoint, payload));
    return given.length === expected.length && timingSafeEqual(given, expected) ? payload : undefined;
  }

  /** The `Service-Modified` value for a watermark (the user's change sequence as a list saw it). */
  issueWatermark(userId: string, endpoint: string, changeSeq: string): string {
    return this.sign(userId, endpoint, changeSeq);
  }

  /** Reads `since`; a value this endpoint never issued to this user is a 400 naming the rule. */
  readWatermark(userId: string, endpoint: string, since: string): string {
    const payload = this.verify(userId, endpoint, since);
    if (payload === undefined || !/^\d{1,19}$/.test(payload)) {
      throw new AppError('SYNC_TOKEN_INVALID', {
        description: 'since must be a Service-Modified value this endpoint sent; never make one up.',
        fields: [{ field: 'since', error: 'must be a Service-Modified value issued by this endpoint' }],
      });
    }
    return payload;
  }
}
