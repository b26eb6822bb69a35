import { inputError } from '@pfs/errors';
import type { PageRequest } from '@pfs/resource-store';
import type { Request } from 'express';
import { userIdOf } from './caller-context';
import { pageOffset, parseBooleanParam, parsePageParams } from './pagination';
import type { SyncTokens } from './sync-token';

/** A list request as the layer understood it; pass it to `ResourceTable.list` as the PageRequest. */
export interface ListParams extends PageRequest {
  endpoint: string;
  page: number;
  /** The Service-Modified of the first page of a Link traversal: every later page repeats it. */
  pinnedWatermark?: string;
}

export interface ParseListOptions {
  /** Names the endpoint for Service-Modified and cursors (`categories`, `entries`); each has its own values. */
  endpoint: string;
  defaultPerPage?: number;
}

/**
 * Reads page, per_page, since, include_deleted and the Link cursor. A cursor is `<seq>.<id>.<watermark>`
 * signed: the keyset position after the last row of the previous page, and the watermark of the first page.
 */
export function parseListParams(req: Request, tokens: SyncTokens, options: ParseListOptions): ListParams {
  const query = req.query as Record<string, unknown>;
  const { page, perPage } = parsePageParams(query, options.defaultPerPage);
  const userId = userIdOf(req);
  const params: ListParams = {
    endpoint: options.endpoint,
    page,
    perPage,
    offset: pageOffset(page, perPage),
    includeDeleted: parseBooleanParam(query, 'include_deleted') ?? false,
  };
  if (query.since !== undefined) {
    if (typeof query.since !== 'string') throw inputError([{ field: 'since', error: 'must be one value' }]);
    params.sinceSeq = tokens.readWatermark(userId, options.endpoint, query.since);
  }
  if (query.cursor !== undefined) {
    const payload =
      typeof query.cursor === 'string'
        ? tokens.verify(userId, `${options.endpoint}#cursor`, query.cursor)
        : undefined;
    const parts = payload?.split('.');
    if (!parts || parts.length !== 3) {
      throw inputError([{ field: 'cursor', error: 'must be a cursor taken from a Link header' }]);
    }
    params.after = { changeSeq: parts[0], id: parts[1] };
    params.pinnedWatermark = parts[2];
  }
  return params;
}

/** The cursor for the page after the one whose last row is `last`. */
export function nextCursor(
  tokens: SyncTokens,
  userId: string,
  params: ListParams,
  last: { changeSeq: string; id: string },
  watermark: string,
): string {
  const pinned = params.pinnedWatermark ?? watermark;
  return tokens.sign(userId, `${params.endpoint}#cursor`, `${last.changeSeq}.${last.id}.${pinned}`);
}
