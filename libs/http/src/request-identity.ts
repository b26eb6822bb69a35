import type { Response } from 'express';

/** Who a request acted for, as the request log line shows it: ids only, never a credential. */
export interface RequestIdentity {
  userId?: string;
  clientId?: string;
}

/** A symbol slot on the response, typed through the two functions below (no untyped `res.locals` key). */
const IDENTITY = Symbol('pfs.requestIdentity');
type Carrier = Response & { [IDENTITY]?: RequestIdentity };

/**
 * Records who the request acts for, for the request log line: the API's authentication step (its request
 * context has both ids), the token endpoint after a grant.
 */
export function setRequestIdentity(res: Response, identity: RequestIdentity): void {
  (res as Carrier)[IDENTITY] = identity;
}

/** The identity recorded for a request, if any. */
export function requestIdentityOf(res: Response): RequestIdentity | undefined {
  return (res as Carrier)[IDENTITY];
}
