import { AppError, serializeError } from '@pfs/errors';
import { attachCallerContext, hasScope, scopesOf } from '@pfs/resource-api';
import type { Request, Response } from 'express';
import type { ApiOperation } from '../../http/api-operation';
import type { RequestContext } from '../../http/request-context';

/** What a tool passes to an operation: the path parameters, the query and body of the REST call it stands for. */
export interface OperationInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Mapped onto `Idempotency-Key`: the operation's IdempotencyRepository claim, as over REST. */
  idempotencyKey?: string;
}

/** The operation's answer: what the REST client would have got. */
export interface OperationAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * The response an operation writes into when a tool runs it: the status, headers and body are kept, not
 * sent (no socket). The representation functions of @pfs/resource-api write with these methods only.
 */
class KeptResponse {
  statusCode = 200;
  headersSent = false;
  readonly locals: Record<string, unknown> = {};
  private readonly headers = new Map<string, string>();
  private text: string | undefined;

  constructor(readonly req: Request) {}

  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string | number | readonly string[]) {
    this.headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    return this;
  }
  set(name: string, value: string) {
    return this.setHeader(name, value);
  }
  header(name: string, value: string) {
    return this.setHeader(name, value);
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  hasHeader(name: string) {
    return this.headers.has(name.toLowerCase());
  }
  removeHeader(name: string) {
    this.headers.delete(name.toLowerCase());
  }
  end(chunk?: string | Buffer) {
    if (chunk !== undefined) this.text = chunk.toString();
    this.headersSent = true;
    return this;
  }
  json(body: unknown) {
    return this.end(JSON.stringify(body));
  }
  send(body: unknown) {
    return typeof body === 'string' || Buffer.isBuffer(body) ? this.end(body) : this.json(body);
  }

  answer(): OperationAnswer {
    return {
      status: this.statusCode,
      headers: Object.fromEntries(this.headers),
      body: this.text === undefined || this.text === '' ? undefined : JSON.parse(this.text),
    };
  }
}

/** The request an operation reads: path, query, body and headers of the REST call, with the caller's context. */
function requestFor(operation: ApiOperation, context: RequestContext, input: OperationInput): Request {
  const params = input.params ?? {};
  const path = operation.href.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  const query = input.query ?? {};
  const search = new URLSearchParams(query).toString();
  const originalUrl = search ? `${path}?${search}` : path;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (input.idempotencyKey !== undefined) headers['idempotency-key'] = input.idempotencyKey;
  const request = {
    method: operation.method,
    url: originalUrl,
    originalUrl,
    path,
    baseUrl: '',
    query: { ...query },
    params: { ...params },
    body: input.body,
    headers,
    get: (name: string) => headers[name.toLowerCase()],
    header: (name: string) => headers[name.toLowerCase()],
  };
  const req = request as unknown as Request;
  attachCallerContext(req, context);
  return req;
}

/**
 * Runs one of the API's operations in this process for an MCP tool: the same scope check, the same handler
 * (its validation, use cases, conflicts and idempotency) as the REST route, without a network round trip.
 * A refusal comes back as the answer the REST client would get (status and the error body).
 */
export async function callOperation(
  operation: ApiOperation,
  caller: RequestContext,
  input: OperationInput,
): Promise<OperationAnswer> {
  // Its own context: the handler may record the negotiated format; JSON, as a plain-JSON client gets.
  const context: RequestContext = { ...caller, format: 'json', onNotModified: undefined };
  try {
    const missing = scopesOf(operation).filter((scope) => !hasScope(context.scopes, scope));
    if (missing.length) {
      throw new AppError('INSUFFICIENT_SCOPE', {
        description: `This tool needs the ${missing.join(' and ')} scope${missing.length > 1 ? 's' : ''}.`,
      });
    }
    const req = requestFor(operation, context, input);
    const res = new KeptResponse(req);
    await operation.handler(context, req, res as unknown as Response);
    return res.answer();
  } catch (error) {
    const { status, body, isServerFault } = serializeError(error);
    if (isServerFault && !(error instanceof AppError && error.code === 'UNAVAILABLE')) throw error;
    return { status, headers: {}, body };
  }
}
