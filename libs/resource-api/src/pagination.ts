import { inputError } from '@pfs/errors';

export const MIN_PER_PAGE = 10;
export const MAX_PER_PAGE = 500;
export const DEFAULT_PER_PAGE = 200;

export interface PageParams {
  page: number;
  perPage: number;
}

type Query = Record<string, unknown>;

function readInteger(query: Query, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw)) {
    throw inputError([{ field: name, error: 'must be an integer' }]);
  }
  // Any length is an integer; past 2^53 the exact value no longer matters (such a page is past the end).
  return Math.max(Math.min(Number(raw), Number.MAX_SAFE_INTEGER), -Number.MAX_SAFE_INTEGER);
}

/**
 * The rows a page skips. The spec bounds `page` only below, so a page far past the end is an empty page,
 * never an error: the offset is capped where it still fits Postgres' bigint and stays an exact integer.
 */
export function pageOffset(page: number, perPage: number): number {
  return Math.min(page * perPage, Number.MAX_SAFE_INTEGER);
}

/** `page` (≥0, default 0) and `per_page` (10–500, default 200 or the resource's own); out of range is a 400 naming the rule. */
export function parsePageParams(query: Query, defaultPerPage = DEFAULT_PER_PAGE): PageParams {
  const page = readInteger(query, 'page') ?? 0;
  const perPage = readInteger(query, 'per_page') ?? defaultPerPage;
  if (page < 0) throw inputError([{ field: 'page', error: 'must be at least 0' }]);
  if (perPage < MIN_PER_PAGE)
    throw inputError([{ field: 'per_page', error: `must be at least ${MIN_PER_PAGE}` }]);
  if (perPage > MAX_PER_PAGE)
    throw inputError([{ field: 'per_page', error: `must be at most ${MAX_PER_PAGE}` }]);
  return { page, perPage };
}

/** A boolean query flag: true/false (also 1/0); anything else is a 400. */
export function parseBooleanParam(query: Query, name: string): boolean | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw inputError([{ field: name, error: 'must be true or false' }]);
}

/** A comma-separated list parameter (`ids=1,2,3`); each item checked by `isValid`. */
export function parseListParam(
  query: Query,
  name: string,
  isValid: (item: string) => boolean,
  rule = 'must be a comma-separated list of ids',
): string[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw inputError([{ field: name, error: rule }]);
  const items = raw === '' ? [] : raw.split(',');
  if (items.length > MAX_PER_PAGE || !items.every(isValid)) throw inputError([{ field: name, error: rule }]);
  return items;
}

/** A query parameter that must be one of `values` (a repeated parameter is refused too). */
export function parseEnumParam<T extends string>(
  query: Query,
  name: string,
  values: readonly T[],
): T | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !values.includes(raw as T)) {
    throw inputError([{ field: name, error: `must be one of ${values.join(', ')}` }]);
  }
  return raw as T;
}

/** The `search` text filter: one string of at most `maxLength` characters; empty means no filter. */
export function parseSearchParam(query: Query, maxLength: number): string | undefined {
  const raw = query.search;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.length > maxLength) {
    throw inputError([{ field: 'search', error: `must be a string of at most ${maxLength} characters` }]);
  }
  return raw || undefined;
}

export interface LinkOptions {
  /** The request's path (no query), e.g. `/categories`. */
  path: string;
  /** The raw query string of the request, without `?`. */
  rawQuery: string;
  page: number;
  perPage: number;
  total: number;
  /** Opaque keyset cursor for the next page, when one exists. */
  nextCursor?: string;
  /** Rows follow this page. When absent, the total decides (page < last). */
  hasMore?: boolean;
  /** The query parameters the list understands; absent: every parameter is kept. */
  knownParams?: ReadonlySet<string>;
}

/**
 * The longest Link header written. Past it (a client's parameters are long even when declared), the links
 * carry the paging parameters only: clients and proxies refuse response headers past 8–16 KB in total.
 */
export const MAX_LINK_HEADER_LENGTH = 4096;

function paramName(part: string): string | undefined {
  try {
    return decodeURIComponent(part.split('=')[0].replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Params the Link builder writes itself; the list's other parameters are kept as sent. */
const OWN_PARAMS = new Set(['page', 'per_page', 'cursor']);

function pageHref(options: LinkOptions, page: number, cursor?: string): string {
  const kept = options.rawQuery.split('&').filter((part) => {
    const name = part ? paramName(part) : undefined;
    return name !== undefined && !OWN_PARAMS.has(name) && (options.knownParams?.has(name) ?? true);
  });
  const parts = [`page=${page}`, `per_page=${options.perPage}`, ...kept];
  if (cursor) parts.push(`cursor=${encodeURIComponent(cursor)}`);
  return `${options.path}?${parts.join('&')}`;
}

export function lastPageOf(total: number, perPage: number): number {
  return Math.max(0, Math.ceil(total / perPage) - 1);
}

/**
 * The RFC 8288 Link header in the exact form existing clients parse: relative targets, `page=` before
 * `per_page=`, the list's other query parameters kept, entries `<…>; rel="next"` joined by `, `; never
 * longer than MAX_LINK_HEADER_LENGTH.
 */
export function buildLinkHeader(options: LinkOptions): string {
  const header = linksOf(options);
  return header.length <= MAX_LINK_HEADER_LENGTH ? header : linksOf({ ...options, rawQuery: '' });
}

function linksOf(options: LinkOptions): string {
  // Rows read beyond this page win over the total, which can shrink while a client pages (deletions).
  const hasNext = options.hasMore ?? options.page < lastPageOf(options.total, options.perPage);
  const last = Math.max(lastPageOf(options.total, options.perPage), hasNext ? options.page + 1 : 0);
  const links = [`<${pageHref(options, 0)}>; rel="first"`];
  if (options.page > 0)
    links.push(`<${pageHref(options, Math.min(options.page - 1, last))}>; rel="previous"`);
  if (hasNext) links.push(`<${pageHref(options, options.page + 1, options.nextCursor)}>; rel="next"`);
  links.push(`<${pageHref(options, last)}>; rel="last"`);
  return links.join(', ');
}
