import { bodyTextGuard } from '@pfs/http';
import type { RequestHandler } from 'express';
import { parse as parseQueryString } from 'qs';
import { parseForm } from './form';

/** `parseForm`'s size limit (body-parser's `16kb`). */
const LIMIT_BYTES = 16 * 1024;

/** body-parser's parameter limit for a URL-encoded body (more is its 413 "too many parameters"). */
const PARAMETER_LIMIT = 1000;

/** The Content-Type values a token request is sent with in practice (RFC 6749 §4.1.3, oauth4webapi, curl…). */
const PLAIN_FORM_TYPES = new Set([
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded;charset=utf-8',
  'application/x-www-form-urlencoded; charset=utf-8',
  'application/x-www-form-urlencoded;charset=UTF-8',
  'application/x-www-form-urlencoded; charset=UTF-8',
]);

/**
 * A body of plain `name=value` pairs only: names of letters and `_`, values without `=`, `[`, `]` or their
 * escapes. For such a body qs (body-parser's parser) gives each name its value, or an array when repeated, which
 * `readPlainPairs` reproduces; any other body goes to qs itself with body-parser's options.
 */
const PLAIN_PAIRS = /^[A-Za-z_]+=[^&=[\]]*(?:&[A-Za-z_]+=[^&=[\]]*)*$/;
const ESCAPED_BRACKET = /%5[BD]/i;

/** qs's decoding of a value: `+` is a space; a malformed escape leaves the value as sent. */
function decodeValue(value: string): string {
  if (!value.includes('%')) return value.includes('+') ? value.replace(/\+/g, ' ') : value;
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function readPlainPairs(text: string): Record<string, string | string[]> | undefined {
  if (!PLAIN_PAIRS.test(text) || ESCAPED_BRACKET.test(text)) return undefined;
  const body: Record<string, string | string[]> = {};
  for (const pair of text.split('&')) {
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    if (name in Object.prototype) return undefined;
    const value = decodeValue(pair.slice(separator + 1));
    const previous = body[name];
    body[name] = previous === undefined ? value : ([] as string[]).concat(previous, value);
  }
  return body;
}

/** What body-parser's `urlencoded({ extended: false })` makes of a UTF-8 body (its `parse`), or undefined for its 413. */
export function parseUrlEncodedText(text: string): Record<string, unknown> | undefined {
  if (text.length === 0) return {};
  const pairs = text.split('&', PARAMETER_LIMIT + 1).length;
  if (pairs > PARAMETER_LIMIT) return undefined;
  return (
    readPlainPairs(text) ??
    parseQueryString(text, {
      allowPrototypes: true,
      arrayLimit: pairs,
      depth: 0,
      charset: 'utf-8',
      parameterLimit: PARAMETER_LIMIT,
      strictDepth: true,
    })
  );
}

const unreadable = (message: string) => Object.assign(new Error(message), { status: 400 });

/**
 * The token endpoint's form: `parseForm`'s result (the same `req.body`, the same errors for the route to answer),
 * read without body-parser's general machinery (type-is, raw-body, iconv-lite, content-type) for the request every
 * client sends: a plain form Content-Type, a Content-Length within the limit, no Content-Encoding. Anything else
 * goes through `parseForm` unchanged. Measured: docs/bench.md, "Token grants … (session 8)".
 */
export const parseTokenRequestForm: RequestHandler = (req, res, next) => {
  const { headers } = req;
  const length = Number(headers['content-length']);
  if (
    !PLAIN_FORM_TYPES.has(headers['content-type'] ?? '') ||
    headers['content-encoding'] !== undefined ||
    headers['transfer-encoding'] !== undefined ||
    !(length <= LIMIT_BYTES) ||
    req.readableEnded
  ) {
    parseForm(req, res, next);
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (error?: Error) => {
    if (settled) return;
    settled = true;
    req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    if (error) return next(error);
    // iconv-lite's UTF-8 decoding, as body-parser's: invalid bytes become U+FFFD and a leading BOM is dropped.
    const decoded = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    const body = parseUrlEncodedText(decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded);
    if (body === undefined) return next(Object.assign(unreadable('too many parameters'), { status: 413 }));
    req.body = body;
    bodyTextGuard(req, res, next);
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = () =>
    settle(received === length ? undefined : unreadable('request size did not match content length'));
  const onError = (error: Error) => settle(unreadable(error.message));
  const onClose = () => settle(unreadable('request aborted'));
  req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
};
