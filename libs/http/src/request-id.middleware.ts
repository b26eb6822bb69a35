import 'pino-http';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** An incoming id is kept only when it is short and plain, so it cannot inject into logs or headers. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane incoming `X-Request-Id` or makes one; every log line and 5xx body carries it. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('x-request-id');
  const id = incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
