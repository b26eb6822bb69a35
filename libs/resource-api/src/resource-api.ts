import type { Redis } from '@pfs/redis';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { userIdOf } from './caller-context';
import { ListParams, parseListParams, ParseListOptions } from './list-params';
import { ListQueryParams } from './list-query-params';
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
    this.respond = new Responder({
      baseUrl: options.baseUrl,
      tokens: this.tokens,
      listQueryParams: new ListQueryParams(this.schemas),
    });
  }

  /** page, per_page, since, include_deleted and cursor of a list request (400 naming the rule when bad). */
  /**
   * A value derived from the user's data (usage counts of a page…), remembered per watermark: any write
   * of the user changes the watermark, so a remembered value is never stale. Without Redis, computed.
   */
  async rememberAtWatermark<V>(key: string, watermark: string, compute: () => Promise<V>): Promise<V> {
    const redis = this.options.redis;
    if (!redis) return compute();
    const fullKey = `derived:${createHash('sha1').update(key).digest('base64url')}:${watermark}`;
    const cached = await redis.get(fullKey).catch(() => null);
    if (cached !== null) return JSON.parse(cached) as V;
    const value = await compute();
    await redis.set(fullKey, JSON.stringify(value), 'EX', 600).catch(() => undefined);
    return value;
  }

  parseList(req: Request, options: ParseListOptions): ListParams {
    const params = parseListParams(req, this.tokens, options);
    if (this.options.redis) {
      params.totalCache = redisTotalCache(this.options.redis, options.endpoint, userIdOf(req), req);
    }
    return params;
  }
}
