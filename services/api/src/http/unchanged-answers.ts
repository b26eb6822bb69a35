import {
  type PreparedRepresentation,
  pageAsSent,
  sendStoredPage,
  type StoredPage,
  StoredPages,
} from '@pfs/resource-api';
import type { Request, Response } from 'express';
import type { ApiDependencies } from '../dependencies';
import { requestContext } from './request-context';

/** Where to store a fresh answer: the request's key and the version its data was read at. */
export interface AnswerStamp {
  key: string;
  version: string;
}

/**
 * The unchanged-answer fast path for derived reads (the budgets page, `/me/summary`): their answer depends
 * only on the user's data (the list version: change watermark and profile), the rate book and today. The
 * answer sent is kept in the process's memory (StoredPages: bounded, least recently used out first) under
 * the request's key, stamped with that version; a request that finds the same version gets the very bytes
 * and headers sent before (ETag and 304 included) after one indexed read of the version (none while it is
 * held in the process: HeldListStates), instead of the figures' reads,
 * the presenting and the hashing again. Any write of the user, a new rate book or a new day changes the
 * version, so a stale answer is never served.
 */
export class UnchangedAnswers {
  private readonly stored: StoredPages;

  constructor(
    private readonly deps: Pick<ApiDependencies, 'listStates' | 'rates' | 'resourceApi'>,
    private readonly shape: {
      schema: string;
      kind: 'list' | 'object';
      budgetBytes: number;
      /** The day the answer's `planned` figures and current iterations are counted from. */
      today: () => string;
    },
  ) {
    this.stored = new StoredPages(shape.budgetBytes);
  }

  /** Sends the stored answer and returns undefined, or returns the stamp to `keep` the fresh answer under. */
  async sendIfUnchanged(req: Request, res: Response): Promise<AnswerStamp | undefined> {
    const context = requestContext(req);
    const key = StoredPages.keyOf(req, String(context.format));
    const state = await this.deps.listStates.listState(context.userId);
    const version = `${state.version}:${this.deps.rates.lastLoaded?.getTime() ?? 0}:${this.shape.today()}`;
    const page = this.stored.get(key, version);
    if (!page) return { key, version };
    this.send(req, res, page);
    return undefined;
  }

  /** Keeps the answer just sent on `res` (with its list headers, for a list) under `stamp`. */
  keep(stamp: AnswerStamp, res: Response, prepared: PreparedRepresentation): void {
    this.stored.set(stamp.key, pageAsSent(res, stamp.version, prepared));
  }

  private send(req: Request, res: Response, page: StoredPage): void {
    const respond = this.deps.resourceApi.respond;
    if (this.shape.kind === 'list') sendStoredPage(respond, req, res, this.shape.schema, page);
    else respond.sendPrepared(req, res, this.shape.schema, page.prepared);
  }
}
