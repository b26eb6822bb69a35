import { ErrorCode, ErrorCodes } from './error-codes';

/** One problem with one field of the request, as `fields[]` of the error body carries it. */
export interface FieldError {
  field: string;
  error: string;
}

export interface AppErrorOptions {
  /** What the client reads; shown only when the status is below 500. */
  description: string;
  fields?: FieldError[];
  /** Extra response headers, such as Retry-After or WWW-Authenticate. */
  headers?: Record<string, string>;
  /** Extra members of the JSON body (a 409 carries the current object). */
  body?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type of the services: a stable code, its status, and what may be shown to the client. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errorId: string;
  readonly fields?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly body?: Record<string, unknown>;

  constructor(code: ErrorCode, options: AppErrorOptions) {
    super(options.description, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ErrorCodes[code].status;
    this.errorId = ErrorCodes[code].id;
    this.fields = options.fields;
    this.headers = options.headers;
    this.body = options.body;
  }

  /** Client errors carry their message to the client; server errors never do. */
  get isExposed(): boolean {
    return this.status < 500;
  }
}

export function inputError(fields: FieldError[], description = 'The request has invalid fields.'): AppError {
  return new AppError('INPUT_INVALID', { description, fields });
}

export function notFound(what: string, id?: string): AppError {
  return new AppError('OBJECT_NOT_FOUND', {
    description: id === undefined ? `${what} not found.` : `${what} with id ${id} not found.`,
  });
}
