/**
 * @pfs/resource-api: the behaviour every resource endpoint shares (docs/conventions.md).
 * Routes use: requireScope/requireAreaScope, ResourceApi (parse lists, send objects and lists, created,
 * deleted), SchemaRegistry (parse and validate writes), resolveWrite (modified checks, three-way merge, 409).
 */
export { attachCallerContext, callerContextOf, callerOf, userIdOf } from './caller-context';
export type { CallerContext } from './caller-context';
export { httpDate, isNotModified, strongEtag } from './caching';
export type { PreparedRepresentation } from './caching';
export { nextCursor, parseListParams } from './list-params';
export type { ListParams, ParseListOptions } from './list-params';
export {
  contentTypeFor,
  CURRENT_VERSION,
  jsonBodyTypes,
  negotiateFormat,
  negotiateMediaType,
  requireJsonBody,
  SUPPORTED_VERSIONS,
  VENDOR_MEDIA_TYPE,
} from './media-type';
export type { ResponseFormat } from './response-format';
export { normalizeBody, unsetPlaceholders } from './normalize-body';
export { placeholderBodies } from './placeholder-bodies';
export { buildOpenApi, scopesOf } from './openapi';
export {
  buildLinkHeader,
  DEFAULT_PER_PAGE,
  lastPageOf,
  MAX_PER_PAGE,
  MIN_PER_PAGE,
  parseBooleanParam,
  parseEnumParam,
  parseListParam,
  parseSearchParam,
  parsePageParams,
} from './pagination';
export type { LinkOptions, PageParams } from './pagination';
export {
  assertExtraSize,
  compact,
  formatDate,
  formatModified,
  formatTimestamp,
  MAX_EXTRA_BYTES,
  parseModified,
} from './representation';
export { httpsMiddleware } from './https.middleware';
export type { HttpsOptions } from './https.middleware';
export { hyperSchemaDocument, createSchemaOf, updateSchemaOf, writableProperties } from './resource-schema';
export type { HyperLink, JsonSchema, ResourceSchema } from './resource-schema';
export type { Amount, SubmissionOf, WriteBodyOf } from './schema-types';
export { Responder } from './respond';
export { pageAsSent, sendStoredPage, StoredPages } from './stored-pages';
export type { StoredPage } from './stored-pages';
export type { ResponderOptions } from './respond';
export { SchemaRegistry } from './schema-registry';
export { hasScope, requireAreaScope, requireScope, requireScopes } from './scopes';
export { SyncTokens } from './sync-token';
export { applyMergePatch, readClientModified, resolveWrite, threeWayMerge } from './writes';
export type { ResolveWriteOptions } from './writes';
export { ResourceApi } from './resource-api';
export type { ResourceApiOptions } from './resource-api';
export { parseCreateBody, updateFromRequest } from './write-flow';
export type { UpdateFlowOptions } from './write-flow';
export { methodNotAllowed } from './method-not-allowed';
export type {
  Operation,
  OperationDeclaration,
  OperationHandler,
  PublishedResource,
  ResourceDefinition,
} from './operation';
export { operationsRouter } from './operations-router';
export type { ContextOf } from './operations-router';
export { linkOf, publishResources } from './publish';
