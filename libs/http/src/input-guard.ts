import { AppError, FieldError, inputError } from '@pfs/errors';
import type { RequestHandler } from 'express';

/**
 * Input every route refuses before it reaches a handler or a store: U+0000 (PostgreSQL text cannot hold it,
 * so it used to surface as a 500), percent-escapes that do not decode to UTF-8 (a URIError in code that
 * decodes the query), and JSON nested deeper than any resource needs (recursive code, the Idempotency-Key
 * body hash among it, would overflow the stack). Each is a 400 `error.input` naming the field.
 */

/** Deeper than any body of the API (`extra` included) needs; the parser refuses more before parsing. */
export const MAX_JSON_DEPTH = 32;

const NUL = '\u0000';
const NUL_RULE = 'must not contain the character U+0000';
const ESCAPE_RULE = 'is not valid percent-encoded UTF-8';
/** Field names echoed back are cut, so a huge key cannot make a huge error body. */
const MAX_FIELD_NAME = 100;

function fieldName(name: string): string {
  const printable = name.split(NUL).join('\\u0000');
  return printable.length > MAX_FIELD_NAME ? `${printable.slice(0, MAX_FIELD_NAME)}…` : printable;
}

/** decodeURIComponent that reports failure instead of throwing (`%`, `%zz`, `%C0`). */
function decoded(text: string, plusIsSpace: boolean): string | undefined {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
  } catch {
    return undefined;
  }
}

/** The problems of a raw query string: each key and value must decode and hold no U+0000. */
function queryProblems(query: string): FieldError[] {
  const problems: FieldError[] = [];
  for (const part of query.split('&')) {
    if (!part) continue;
    const separator = part.indexOf('=');
    const rawKey = separator === -1 ? part : part.slice(0, separator);
    const rawValue = separator === -1 ? '' : part.slice(separator + 1);
    const key = decoded(rawKey, true);
    if (key === undefined) {
      problems.push({ field: fieldName(rawKey), error: `(a query parameter name) ${ESCAPE_RULE}` });
      continue;
    }
    const value = decoded(rawValue, true);
    if (key.includes(NUL))
      problems.push({ field: fieldName(key), error: `(a query parameter name) ${NUL_RULE}` });
    else if (value === undefined) problems.push({ field: fieldName(key), error: ESCAPE_RULE });
    else if (value.includes(NUL)) problems.push({ field: fieldName(key), error: NUL_RULE });
  }
  return problems;
}

/** The problems of the path: every segment (ids included) must decode and hold no U+0000. */
function pathProblems(path: string): FieldError[] {
  for (const segment of path.split('/')) {
    const text = decoded(segment, false);
    if (text === undefined)
      return [{ field: 'path', error: `segment "${fieldName(segment)}" ${ESCAPE_RULE}` }];
    if (text.includes(NUL)) return [{ field: 'path', error: `segment "${fieldName(text)}" ${NUL_RULE}` }];
  }
  return [];
}

/** First middleware after logging: refuses a request line whose path or query cannot be read safely. */
export const requestTargetGuard: RequestHandler = (req, _res, next) => {
  const target = req.originalUrl ?? req.url;
  // Without a percent-escape nothing can fail to decode, and without U+0000 there is none to find: most
  // requests skip the split and decoding below (they allocated arrays and strings on every request).
  if (!target.includes('%') && !target.includes(NUL)) {
    next();
    return;
  }
  const mark = target.indexOf('?');
  const problems = [
    ...pathProblems(mark === -1 ? target : target.slice(0, mark)),
    ...(mark === -1 ? [] : queryProblems(target.slice(mark + 1))),
  ];
  next(problems.length ? inputError(problems, 'The request URL has invalid parameters.') : undefined);
};

/**
 * body-parser's `verify` for JSON: scans the raw text once (strings skipped) and refuses nesting deeper
 * than `maxDepth`, so neither JSON.parse nor any recursive walk after it sees such a body.
 */
export function jsonDepthVerifier(maxDepth = MAX_JSON_DEPTH) {
  return (_req: unknown, _res: unknown, body: Buffer): void => {
    let depth = 0;
    let inString = false;
    for (let index = 0; index < body.length; index += 1) {
      const byte = body[index];
      if (inString) {
        if (byte === 0x5c)
          index += 1; // backslash: skip the escaped character
        else if (byte === 0x22) inString = false;
      } else if (byte === 0x22) inString = true;
      else if (byte === 0x5b || byte === 0x7b) {
        depth += 1;
        if (depth > maxDepth) {
          throw inputError(
            [{ field: '(body)', error: `must not nest arrays and objects deeper than ${maxDepth} levels` }],
            'The request body is nested too deeply.',
          );
        }
      } else if (byte === 0x5d || byte === 0x7d) depth -= 1;
    }
  };
}

/** The first string (key or value) of a parsed body holding U+0000, as a field path (`extra.note`, `0.desc`). */
function nulField(body: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: body, path: '' }];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (pending.length) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path || '(body)';
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: join(path, String(index)) }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes(NUL)) return join(path, key);
        pending.push({ value: item, path: join(path, key) });
      }
    }
  }
  return undefined;
}

/** After a body parser (JSON or form): refuses U+0000 anywhere in the body, naming the field. */
export const bodyTextGuard: RequestHandler = (req, _res, next) => {
  const field = nulField(req.body);
  next(field === undefined ? undefined : inputError([{ field: fieldName(field), error: NUL_RULE }]));
};

/**
 * Backstop for what the guards above do not foresee: PostgreSQL's class 22 ("data exception": a value out
 * of range, malformed, or in a bad encoding) is caused by the request, so it is a 400, never a 500.
 */
export function asInputError(error: unknown): unknown {
  if (error instanceof AppError || !isPostgresDataException(error)) return error;
  return new AppError('INPUT_INVALID', {
    description: 'A value of the request is malformed or out of range.',
    cause: error,
  });
}

function isPostgresDataException(error: unknown): boolean {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}
