import type { Redis } from '@pfs/redis';
import type { Request } from 'express';
import { userIdOf } from './auth-context';
import { ListParams, parseListParams, ParseListOptions } from './list-params';
import { Responder } from './respond';
import { SchemaRegistry } from './schema-registry';
import { SyncTokens } from './sync-token';
import { redisTotalCache } from './total-cache';

export interface ResourceApiOptions {
  /** BASE_URL of the API. */
  baseUrl: string;
  /** SYNC_TOKEN_SECRET: signs Service-Modified values and cursors. */
  syncSecret: string;
  /** When given, list totals are cached per filters and watermark (see total-cache.ts). */
  redis?: Redis;
}

/**
 * The layer, built once at boot and handed to every module: the schema registry, the signed sync
 * tokens, and the responder. Modules register their schema in `ApiModule.schemas`; the app does the rest.
 */
export class ResourceApi {
  readonly schemas = new SchemaRegistry();
  readonly tokens: SyncTokens;
  readonly respond: Responder;

  constructor(readonly options: ResourceApiOptions) {
    this.tokens = new SyncTokens(options.syncSecret);
    this.respond = new Responder({ baseUrl: options.baseUrl, tokens: this.tokens });
  }

  /** page, per_page, since, include_deleted and cursor of a list request (400 naming the rule when bad). */
  parseList(req: Request, options: ParseListOptions): ListParams {
    const params = parseListParams(req, this.tokens, options);
    if (this.options.redis) {
      params.totalCache = redisTotalCache(this.options.redis, options.endpoint, userIdOf(req), req);
    }
    return params;
  }
}
