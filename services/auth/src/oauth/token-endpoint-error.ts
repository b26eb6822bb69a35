/**
 * A refusal decided before the library runs (our checks around it), written like the library's own errors:
 * an RFC 6749 §5.2 JSON body `{error, error_description}` with its status and headers.
 */
export class TokenEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'TokenEndpointError';
  }
}

export const invalidRequest = (description: string) =>
  new TokenEndpointError(400, 'invalid_request', description);
export const invalidScope = (description: string) =>
  new TokenEndpointError(400, 'invalid_scope', description);

/** RFC 6585 429; there is no OAuth error value for it, so the body names it plainly. */
export const tooManyRequests = (retryAfterSeconds: number) =>
  new TokenEndpointError(429, 'too_many_requests', 'Too many attempts; retry later.', {
    'Retry-After': String(retryAfterSeconds),
  });
