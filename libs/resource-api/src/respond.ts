import type { PageResult, SyncedRecord } from '@pfs/resource-store';
import type { Request, Response } from 'express';
import { callerOf, userIdOf } from './caller-context';
import { httpDate, isNotModified, PreparedRepresentation, strongEtag } from './caching';
import { ListParams, nextCursor } from './list-params';
import { contentTypeFor } from './media-type';
import { buildLinkHeader } from './pagination';
import type { ListQueryParams } from './list-query-params';
import type { SyncTokens } from './sync-token';

export interface CreatedResponse {
  status: 201;
  headers: Record<string, string>;
  body: unknown;
}

export interface ResponderOptions {
  /** BASE_URL: the schema profile is `{baseUrl}/schema/<schema>#`. */
  baseUrl: string;
  tokens: SyncTokens;
  /** The query parameters each list declares; Link headers keep only those. */
  listQueryParams?: ListQueryParams;
}

function queryString(req: Request): string {
  const cut = req.originalUrl.indexOf('?');
  return cut === -1 ? '' : req.originalUrl.slice(cut + 1);
}

function pathOf(req: Request): string {
  return req.originalUrl.split('?')[0];
}

/**
 * Writes resource responses the one way the conventions ask: vendor media type with profile, strong ETag
 * and Last-Modified, 304 (with the list headers repeated) when the client's copy is current, Link,
 * X-Total-Count and Service-Modified on lists. Call only after authentication, scope and existence checks.
 */
export class Responder {
  constructor(private readonly options: ResponderOptions) {}

  /**
   * Serialises a representation once, with its strong ETag: what `sendPrepared` sends and a cache stores.
   * Encoded to UTF-8 once, here: the hash, the socket and a stored page all take these bytes (each encoded
   * the 50 KB text of a page of 200 entries again: bench profile, issue 13).
   */
  prepare(payload: unknown, lastModified?: Date): PreparedRepresentation {
    return this.prepareText(JSON.stringify(payload), lastModified);
  }

  /** `prepare` of a body already serialised, as text or as its UTF-8 bytes (then kept as bytes only). */
  prepareText(body: string | Buffer, lastModified?: Date): PreparedRepresentation {
    if (typeof body !== 'string') return { body: '', bytes: body, etag: strongEtag(body), lastModified };
    const bytes = Buffer.from(body);
    return { body, bytes, etag: strongEtag(bytes), lastModified };
  }

  /**
   * Sends a prepared representation: ETag, Last-Modified, 304 when the client's copy is current, otherwise
   * the body under the negotiated media type. A cached representation goes out byte for byte as it was
   * first sent.
   */
  sendPrepared(req: Request, res: Response, schema: string, prepared: PreparedRepresentation): void {
    const { body, bytes, etag, lastModified } = prepared;
    res.setHeader('ETag', etag);
    if (lastModified) res.setHeader('Last-Modified', httpDate(lastModified));
    res.setHeader('Cache-Control', 'private, no-cache');
    if (isNotModified(req, etag, lastModified)) {
      // A 304 does not count against the rate limit: the authentication step left a refund here.
      callerOf(req).onNotModified?.();
      res.status(304).end();
      return;
    }
    // Written raw: res.send would re-serialise Content-Type and quote the profile parameter.
    res.setHeader('Content-Type', contentTypeFor(callerOf(req).format, this.options.baseUrl, schema));
    if (bytes) {
      res.setHeader('Content-Length', bytes.length);
      res.end(bytes);
      return;
    }
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }

  private send(
    req: Request,
    res: Response,
    schema: string,
    payload: unknown,
    lastModified?: Date,
  ): PreparedRepresentation {
    const prepared = this.prepare(payload, lastModified);
    this.sendPrepared(req, res, schema, prepared);
    return prepared;
  }

  /** One object (already presented: compacted, ids as strings, formatted times). */
  sendObject(req: Request, res: Response, schema: string, body: unknown, modifiedAt?: Date): void {
    this.send(req, res, schema, body, modifiedAt);
  }

  /**
   * A page of a list, with every list header. `present` turns a record into its representation. Returns the
   * prepared body, which a caller may store with the list headers (StoredPages).
   */
  sendList<T extends SyncedRecord>(
    req: Request,
    res: Response,
    options: {
      schema: string;
      params: ListParams;
      result: PageResult<T>;
      present: (record: T) => unknown;
      /** False for lists whose representation changes without a write (derived figures): ETag only. */
      lastModified?: boolean;
    },
  ): PreparedRepresentation {
    const { params, result } = options;
    const newest = result.items.reduce<Date | undefined>(
      (max, item) => (!max || item.modifiedAt > max ? item.modifiedAt : max),
      undefined,
    );
    const lastModified = this.setListHeaders(req, res, {
      params,
      result,
      last: result.hasMore ? result.items[result.items.length - 1] : undefined,
      newest,
    });
    return this.send(
      req,
      res,
      options.schema,
      result.items.map(options.present),
      options.lastModified === false ? undefined : lastModified,
    );
  }

  /**
   * `sendList` for a page whose body is already its JSON text (its items joined, presented where the store
   * wrote them: `GET /entries`), with the page's last keyset position and newest modification.
   */
  sendListText(
    req: Request,
    res: Response,
    options: {
      schema: string;
      params: ListParams;
      result: Omit<PageResult<never>, 'items'>;
      /** The JSON text, or its UTF-8 bytes. */
      body: string | Buffer;
      last?: { changeSeq: string; id: string };
      newest?: Date;
    },
  ): PreparedRepresentation {
    const lastModified = this.setListHeaders(req, res, options);
    const prepared = this.prepareText(options.body, lastModified);
    this.sendPrepared(req, res, options.schema, prepared);
    return prepared;
  }

  /** Link, X-Total-Count and Service-Modified of a page; returns its Last-Modified. */
  private setListHeaders(
    req: Request,
    res: Response,
    page: {
      params: ListParams;
      result: Omit<PageResult<never>, 'items'>;
      last?: { changeSeq: string; id: string };
      newest?: Date;
    },
  ): Date | undefined {
    const { params, result, last } = page;
    const userId = userIdOf(req);
    const watermark = params.pinnedWatermark ?? result.watermark;
    const cursor =
      last && result.hasMore
        ? nextCursor(this.options.tokens, userId, params, last, result.watermark)
        : undefined;
    this.setPageHeaders(req, res, {
      page: params.page,
      perPage: params.perPage,
      total: result.total,
      nextCursor: cursor,
      hasMore: result.hasMore,
    });
    res.setHeader('Service-Modified', this.options.tokens.issueWatermark(userId, params.endpoint, watermark));
    return result.lastChange ?? page.newest;
  }

  /**
   * A page of a list the layer does not page itself (computed groups, derived rows): `Link` over offset
   * pages (no cursor) and `X-Total-Count`, then the body as `sendObject` sends it.
   */
  sendOffsetPage(
    req: Request,
    res: Response,
    schema: string,
    page: { page: number; perPage: number; total: number; body: unknown[] },
  ): void {
    this.setPageHeaders(req, res, page);
    this.send(req, res, schema, page.body);
  }

  /** `Link` (first, prev, next, last over this request's query) and `X-Total-Count` of one page. */
  private setPageHeaders(
    req: Request,
    res: Response,
    page: { page: number; perPage: number; total: number; nextCursor?: string; hasMore?: boolean },
  ): void {
    res.setHeader(
      'Link',
      buildLinkHeader({
        path: pathOf(req),
        rawQuery: queryString(req),
        knownParams: this.options.listQueryParams?.of(pathOf(req)),
        page: page.page,
        perPage: page.perPage,
        total: page.total,
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      }),
    );
    res.setHeader('X-Total-Count', String(page.total));
  }

  /**
   * A 201 for a created object: `Location: {baseUrl}<path>/<id>` and the object's representation (what a
   * GET of that Location answers) as the body, so clients that follow Location and clients that read the
   * body both work. Returned as a value, so an Idempotency-Key can remember it; `sendCreated` sends it.
   */
  created(res: Response, schema: string, path: string, id: string, body: unknown): CreatedResponse {
    return {
      status: 201,
      headers: {
        Location: `${this.options.baseUrl}${path}/${id}`,
        'Content-Type': contentTypeFor(callerOf(res.req).format, this.options.baseUrl, schema),
      },
      body,
    };
  }

  sendCreated(res: Response, schema: string, path: string, id: string, body: unknown): void {
    const created = this.created(res, schema, path, id, body);
    for (const [name, value] of Object.entries(created.headers)) res.setHeader(name, value);
    const text = JSON.stringify(created.body);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.status(201).end(text);
  }

  sendNoContent(res: Response): void {
    res.status(204).end();
  }
}
