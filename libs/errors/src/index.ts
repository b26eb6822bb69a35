export { AppError, inputError, notFound } from './app-error';
export type { AppErrorOptions, FieldError } from './app-error';
export { ErrorCodes } from './error-codes';
export type { ErrorCode } from './error-codes';
export { serializeError } from './serialize-error';
export type { SerializedError } from './serialize-error';
