import type { Request, Response } from 'express';

/** Who a request acted for, as the request log line shows it: ids only, never a credential. */
export interface RequestIdentity {
  userId?: string;
  clientId?: string;
}

/** Records the identity a handler established (the token endpoint after a grant) for the request log line. */
export function setRequestIdentity(res: Response, identity: RequestIdentity): void {
  res.locals.identity = identity;
}

/**
 * The identity of a request: the one a handler recorded, else the API's authenticated `req.auth` (declared by
 * @pfs/resource-api, read structurally here so this library does not depend on it).
 */
export function requestIdentityOf(req: Request, res: Response): RequestIdentity | undefined {
  return (res.locals.identity as RequestIdentity | undefined) ?? (req as { auth?: RequestIdentity }).auth;
}
