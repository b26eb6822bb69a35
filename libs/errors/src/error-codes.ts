/**
 * The stable error ids of the resource API, each with its HTTP status.
 * Ids follow the form existing Toshl clients read in `error_id` (`error.object.not_found`).
 * Documented for clients in docs/errors.md; never rename one.
 */
export const ErrorCodes = {
  INPUT_INVALID: { id: 'error.input', status: 400 },
  MODIFIED_INVALID: { id: 'error.modified.invalid', status: 400 },
  SYNC_TOKEN_INVALID: { id: 'error.sync.since_invalid', status: 400 },
  UNAUTHENTICATED: { id: 'error.auth.unauthenticated', status: 401 },
  FORBIDDEN: { id: 'error.auth.forbidden', status: 403 },
  INSUFFICIENT_SCOPE: { id: 'error.auth.scope', status: 403 },
  HTTPS_REQUIRED: { id: 'error.https_required', status: 403 },
  OBJECT_NOT_FOUND: { id: 'error.object.not_found', status: 404 },
  ROUTE_NOT_FOUND: { id: 'error.route.not_found', status: 404 },
  METHOD_NOT_ALLOWED: { id: 'error.method.not_allowed', status: 405 },
  NOT_ACCEPTABLE: { id: 'error.not_acceptable', status: 406 },
  REQUEST_TIMEOUT: { id: 'error.request.timeout', status: 408 },
  CONFLICT: { id: 'error.object.conflict', status: 409 },
  PAYLOAD_TOO_LARGE: { id: 'error.payload.too_large', status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { id: 'error.unsupported_media_type', status: 415 },
  UNPROCESSABLE: { id: 'error.object.unprocessable', status: 422 },
  RATE_LIMITED: { id: 'error.rate_limited', status: 429 },
  INTERNAL: { id: 'error.internal', status: 500 },
  UNAVAILABLE: { id: 'error.unavailable', status: 503 },
} as const;

export type ErrorCode = keyof typeof ErrorCodes;
