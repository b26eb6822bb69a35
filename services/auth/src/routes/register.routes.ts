import { requestLogger } from '@pfs/http';
import type { Logger } from '@pfs/logger';
import express, { NextFunction, Request, Response, Router } from 'express';
import type { AuthRepositories } from '../auth-repositories';
import { clientNetwork } from '../security/client-network';
import type { RateLimiter } from '../security/rate-limiter';
import { registerClient, RegistrationError } from '../use-cases/register-client.use-case';

export interface RegisterRoutesDependencies {
  repos: Pick<AuthRepositories, 'clients'>;
  limiter: RateLimiter;
  logger: Logger;
  /** Registrations allowed per client IP (per /64 for IPv6) in one rate-limit window. */
  maxPerIp: number;
}

const REGISTRATION_PATH = '/oauth2/register';

const parseJson = express.json({ limit: '16kb', type: () => true });

function refuse(res: Response, status: number, error: string, description: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error, error_description: description });
}

/** A body that is not JSON, or too large, is invalid client metadata (RFC 7591 §3.2.2), not a generic 400. */
function readJson(req: Request, res: Response, next: NextFunction) {
  if (!req.is('application/json')) {
    return refuse(
      res,
      400,
      'invalid_client_metadata',
      'The body must be JSON (Content-Type: application/json).',
    );
  }
  parseJson(req, res, (error?: unknown) => {
    if (error)
      return refuse(res, 400, 'invalid_client_metadata', 'The body must be a JSON object of at most 16 kB.');
    next();
  });
}

/**
 * `POST /oauth2/register`: Dynamic Client Registration (RFC 7591), open to anyone (an assistant registers
 * itself before its user signs in), limited per IP. 201 with the client information; no secret is issued.
 */
export function registerRoutes(deps: RegisterRoutesDependencies): Router {
  const router = Router();
  router.post(REGISTRATION_PATH, async (req, res, next) => {
    const budget = await deps.limiter.hit(`register-ip:${clientNetwork(req.ip)}`, deps.maxPerIp);
    if (budget.blocked) {
      res.setHeader('Retry-After', String(budget.retryAfterSeconds));
      return refuse(
        res,
        429,
        'too_many_requests',
        'Too many registrations from this network; try again later.',
      );
    }
    readJson(req, res, next);
  });
  router.post(REGISTRATION_PATH, async (req, res) => {
    try {
      const information = await registerClient(deps, req.body);
      requestLogger(deps.logger, req).info(
        { clientId: information.client_id, requestId: req.id },
        'client registered',
      );
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json(information);
    } catch (error) {
      if (!(error instanceof RegistrationError)) throw error;
      refuse(res, 400, error.error, error.description);
    }
  });
  return router;
}
