import { AppError } from '@pfs/errors';
import { userIdOf } from '@pfs/resource-api';
import { IdempotencyRepository, type StoredResponse } from '@pfs/resource-store';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** How long a key is remembered: a day covers any sensible client retry. */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs a POST at most once per `Idempotency-Key` (per user): a retry with the same key and body gets the
 * first response again and creates nothing; the same key with another body is a 422; a retry while the
 * first is still running is a 409. Without the header the POST just runs.
 */
export function idempotentPost(dataSource: DataSource) {
  const keys = new IdempotencyRepository(dataSource);
  return async (req: Request, res: Response, run: () => Promise<StoredResponse>): Promise<void> => {
    const key = req.get('idempotency-key');
    if (key === undefined) return send(res, await run());
    if (!KEY.test(key)) {
      throw new AppError('INPUT_INVALID', {
        description: 'Idempotency-Key must be 1–255 printable ASCII characters.',
        fields: [{ field: 'Idempotency-Key', error: 'must be 1–255 printable ASCII characters' }],
      });
    }
    const userId = userIdOf(req);
    const hash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const claim = await keys.claim(userId, key, hash, IDEMPOTENCY_TTL_SECONDS);
    if (claim.state === 'replay') return send(res, claim.response, true);
    if (claim.state === 'mismatch') {
      throw new AppError('UNPROCESSABLE', {
        description: 'This Idempotency-Key was already used for a different request.',
      });
    }
    if (claim.state === 'in_progress') {
      throw new AppError('CONFLICT', {
        description: 'A request with this Idempotency-Key is still being processed; retry shortly.',
      });
    }
    let response: StoredResponse;
    try {
      response = await run();
    } catch (error) {
      await keys.release(userId, key);
      throw error;
    }
    await keys.complete(userId, key, response);
    send(res, response);
  };
}

function send(res: Response, response: StoredResponse, replayed = false): void {
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
