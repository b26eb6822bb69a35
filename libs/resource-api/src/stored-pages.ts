import type { Request, Response } from 'express';
import { callerContextOf } from './caller-context';
import type { PreparedRepresentation } from './caching';
import type { Responder } from './respond';

/** A list page as it was sent: its list headers and its prepared body (ETag, Last-Modified, bytes). */
export interface StoredPage {
  /** What the page's data depended on when it was read (the user's change watermark, among others). */
  version: string;
  link: string;
  totalCount: string;
  serviceModified: string;
  prepared: PreparedRepresentation;
}

/** Stored pages of all users together stay under this many bytes (texts counted as UTF-16, bodies as their bytes). */
const DEFAULT_BUDGET_BYTES = 64 * 2 ** 20;
/** A page larger than this is not stored: it would evict many small ones for one reader. */
const MAX_PAGE_BYTES = 4 * 2 ** 20;

/**
 * The unchanged-page fast path: list pages kept in the process's memory, each under the key of exactly what
 * selects its representation (the user, the token's scopes, the negotiated format, the path and the
 * normalised query) and stamped with the version of the data it was read at. A request whose version (read
 * first, one indexed row) is still the stamped one gets the stored bytes and headers without reading,
 * presenting, serialising or hashing the page again; any change of the user moves the watermark in the
 * version, so a stale page can never be served. Why memory rather than Redis (as `/me` does): a page is
 * 50-100 KB, and moving it through Redis would cost about what reading it from Postgres costs; each API
 * process keeps its own pages, which is correct by the version stamp and only lowers the hit rate.
 * Bounded by bytes, least recently used out first.
 */
export class StoredPages {
  private readonly pages = new Map<string, StoredPage>();
  private bytes = 0;

  constructor(private readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  /**
   * The key of a list request's representation: user, application (`extra` is private to each one), scopes,
   * format, path and query (keys sorted).
   */
  static keyOf(req: Request, format: string): string {
    const query = Object.entries(req.query as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    const caller = callerContextOf(req);
    const scopes = [...(caller?.scopes ?? [])].sort().join(' ');
    const app = caller?.clientId ?? 'personal';
    return JSON.stringify([caller?.userId ?? '', app, scopes, format, req.originalUrl.split('?')[0], query]);
  }

  /** Whether a page is stored under `key`, at any version (a request never stored cannot be answered from here). */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  /** The stored page of `key` when it was stored at `version`, else undefined. */
  get(key: string, version: string): StoredPage | undefined {
    const page = this.pages.get(key);
    if (!page || page.version !== version) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  set(key: string, page: StoredPage): void {
    const size = sizeOf(key, page);
    if (size > MAX_PAGE_BYTES) return;
    this.remove(key);
    this.pages.set(key, page);
    this.bytes += size;
    for (const [oldest] of this.pages) {
      if (this.bytes <= this.budgetBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.bytes -= sizeOf(key, page);
  }
}

function sizeOf(key: string, page: StoredPage): number {
  const text = key.length + page.prepared.body.length + page.link.length + page.serviceModified.length;
  return 2 * text + (page.prepared.bytes?.length ?? 0);
}

/** Sends a stored page as it was first sent: the list headers, then the body (or 304) as `sendPrepared` does. */
export function sendStoredPage(
  responder: Responder,
  req: Request,
  res: Response,
  schema: string,
  page: StoredPage,
): void {
  res.setHeader('Link', page.link);
  res.setHeader('X-Total-Count', page.totalCount);
  res.setHeader('Service-Modified', page.serviceModified);
  responder.sendPrepared(req, res, schema, page.prepared);
}

/** The page `sendList` has just sent on `res` (its list headers are set), stamped with `version`. */
export function pageAsSent(res: Response, version: string, prepared: PreparedRepresentation): StoredPage {
  return {
    version,
    link: String(res.getHeader('Link') ?? ''),
    totalCount: String(res.getHeader('X-Total-Count') ?? ''),
    serviceModified: String(res.getHeader('Service-Modified') ?? ''),
    // Kept as bytes only: each later answer writes them instead of encoding 50-100 KB of text again.
    prepared: { ...prepared, body: '', bytes: prepared.bytes ?? Buffer.from(prepared.body) },
  };
}
