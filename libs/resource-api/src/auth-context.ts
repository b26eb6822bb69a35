/** Who a request acts for, as the token's introspection record says; set by the API's authentication step. */
export interface AuthContext {
  userId: string;
  /** The OAuth client, absent for personal tokens. */
  clientId?: string;
  scopes: string[];
  kind: 'access' | 'personal';
  /** Personal token id, for last-used bookkeeping. */
  tokenId?: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/** The authenticated user's id; routes behind authentication call this instead of `req.auth!`. */
export function userIdOf(req: { auth?: AuthContext }): string {
  if (!req.auth) throw new Error('route mounted without authentication');
  return req.auth.userId;
}
