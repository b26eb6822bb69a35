import type { Request, RequestHandler, Response } from 'express';
import type { HyperLink, ResourceSchema } from './resource-schema';

/** What an operation does once routing, the scope check and its `before` steps have passed. */
export type OperationHandler<Ctx> = (ctx: Ctx, req: Request, res: Response) => unknown;

/**
 * One operation of the API as data: the link it publishes (method, href, scope, title, query, body and
 * response schemas) and how it is mounted. The router, the links of `/schema/<resource>`, the 405 answers
 * with `Allow` and `/openapi.json` are all derived from the list of operations, so what is published is
 * what is served. Declarations are static: the documents can be derived without a running app.
 */
export interface OperationDeclaration extends HyperLink {
  /** The resource (schema name) whose document lists this link, e.g. `tags` for `GET /tags/sums`. */
  resource: string;
  /**
   * The route's path template when one handler serves several published links (`/images/{id}/{file}`
   * serves `…/thumb.jpg`, `…/full.jpg`, `…/document.pdf`); default: `href`. Operations sharing a method
   * and a route share their handler and are mounted once.
   */
  route?: string;
  /**
   * A body or answer that is not JSON (a file upload or download): mounted after authentication but
   * before Accept negotiation, the 415 check and the JSON parser. Its handler checks media types itself.
   */
  files?: boolean;
  /** Steps run after the scope check, before the handler (an upload negotiating its answer's format…). */
  before?: RequestHandler[];
}

/** An operation with the handler that serves it. */
export interface Operation<Ctx> extends OperationDeclaration {
  handler: OperationHandler<Ctx>;
}

/** A resource's document without its links: those come from the operations that name the resource. */
export type ResourceDefinition = Omit<ResourceSchema, 'links'>;

/**
 * A resource its module publishes: the schema and, in the order its document lists them, the relations
 * it offers. Another module may serve one of them (`sums` of `tags` is served by the reports module), but
 * only a relation the owner lists here: no module adds links to another's resource on its own.
 */
export interface PublishedResource {
  schema: ResourceDefinition;
  rels: readonly string[];
}
