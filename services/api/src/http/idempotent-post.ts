import { AppError } from '@pfs/errors';
import type { IdempotencyRepository, StoredResponse, UserChange, ActorStore } from '@pfs/resource-store';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { requestContext } from './request-context';

/** How long a key is remembered: a day covers any sensible client retry. */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs a POST at most once per `Idempotency-Key` (per user): a retry with the same key and body gets the
 * first response again and creates nothing; the same key with another body is a 422. The POST's use case
 * runs in the user's change that `run` is given; with a key, the claim of the key and the stored response
 * are written in that same change, so they commit (or vanish) with the write itself: a retry after any
 * failure either replays the committed answer or runs again, never meets a leftover claim. A concurrent
 * duplicate waits for the first to finish, then replays it. Without the header the POST just runs.
 */
export function idempotentPost(deps: { store: ActorStore; repos: { idempotency: IdempotencyRepository } }) {
  return async (
    req: Request,
    res: Response,
    run: (change: UserChange) => Promise<StoredResponse>,
  ): Promise<void> => {
    const ctx = requestContext(req);
    const key = req.get('idempotency-key');
    if (key === undefined) return sendStoredResponse(res, await deps.store.change(ctx, run));
    if (!KEY.test(key)) {
      throw new AppError('INPUT_INVALID', {
        description: 'Idempotency-Key must be 1–255 printable ASCII characters.',
        fields: [{ field: 'Idempotency-Key', error: 'must be 1–255 printable ASCII characters' }],
      });
    }
    const requestHash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const outcome = await deps.repos.idempotency.runOnce(
      {
        userId: ctx.userId,
        app: ctx.app,
        trace: ctx.trace,
        key,
        requestHash,
        ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
      },
      run,
    );
    if (outcome.state === 'mismatch') {
      throw new AppError('UNPROCESSABLE', {
        description: 'This Idempotency-Key was already used for a different request.',
      });
    }
    sendStoredResponse(res, outcome.response, outcome.state === 'replay');
  };
}

/** Writes a response as an idempotent POST answers it (a stored response replays the same way). */
export function sendStoredResponse(res: Response, response: StoredResponse, replayed = false): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(response.status);
  if (response.body === undefined) return void res.end();
  // Written raw, like every representation: res.json would quote the media type's profile parameter.
  const text = JSON.stringify(response.body);
  if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
