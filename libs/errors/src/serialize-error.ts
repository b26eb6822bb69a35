import { AppError } from './app-error';
import { ErrorCodes } from './error-codes';

export interface SerializedError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** True when the error is ours to fix (a 5xx): the caller logs it with its stack. */
  isServerFault: boolean;
}

/** Errors thrown by body parsers and other middleware carry a status and sometimes an `expose` flag. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

function fromHttpLikeError(error: HttpLikeError): AppError | undefined {
  const status = error.status ?? error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (error.type === 'entity.parse.failed') {
    return new AppError('INPUT_INVALID', { description: 'The request body is not valid JSON.' });
  }
  if (error.type === 'entity.too.large') {
    return new AppError('PAYLOAD_TOO_LARGE', { description: 'The request body is too large.' });
  }
  if (status === 415) {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', {
      description: error.message ?? 'Unsupported media type.',
    });
  }
  return new AppError('INPUT_INVALID', {
    description: error.expose ? (error.message ?? 'Bad request.') : 'Bad request.',
  });
}

/**
 * Turns any thrown value into the one JSON error body of the resource API:
 * `{ error_id, description, fields?, request_id? }`. A 5xx never shows its message or stack.
 */
export function serializeError(error: unknown, requestId?: string): SerializedError {
  const appError = error instanceof AppError ? error : fromHttpLikeError(error as HttpLikeError);
  if (appError && appError.isExposed) {
    const body: Record<string, unknown> = { error_id: appError.errorId, description: appError.message };
    if (appError.fields?.length) body.fields = appError.fields;
    Object.assign(body, appError.body);
    return { status: appError.status, headers: appError.headers ?? {}, body, isServerFault: false };
  }
  const code = appError?.code === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'INTERNAL';
  const body: Record<string, unknown> = {
    error_id: ErrorCodes[code].id,
    description:
      code === 'UNAVAILABLE'
        ? 'The service is temporarily unavailable; try again shortly.'
        : 'An unexpected error occurred; quote the request id when reporting it.',
  };
  if (requestId) body.request_id = requestId;
  return { status: ErrorCodes[code].status, headers: appError?.headers ?? {}, body, isServerFault: true };
}
