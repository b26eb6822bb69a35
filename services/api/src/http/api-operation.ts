import type { ContextOf, Operation, OperationDeclaration, OperationHandler } from '@pfs/resource-api';
import { type RequestContext, requestContext } from './request-context';

/** One operation of the API: its published link and its handler, which gets the typed request context. */
export type ApiOperation = Operation<RequestContext>;

/** What serves an operation: `(ctx, req, res)`, after the scope check and the operation's `before` steps. */
export type ApiHandler = OperationHandler<RequestContext>;

/** A module's handlers by name, built once per app from the dependencies. */
export type ApiHandlers = Record<string, ApiHandler>;

/**
 * An operation as its module declares it, statically: the link and how it is mounted, and the name of
 * its handler among the module's handlers (checked by the compiler). The published documents derive from
 * these declarations alone; the app binds the handlers when it is built.
 */
export interface DeclaredOperation<H extends ApiHandlers = ApiHandlers> extends OperationDeclaration {
  handler: keyof H & string;
}

/** The context each handler gets: the one the authentication step built for the request. */
export const apiContextOf: ContextOf<RequestContext> = (req) => requestContext(req);
