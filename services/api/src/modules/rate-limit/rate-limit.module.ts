import type { GateResult } from '@pfs/resource-api';
import { Router } from 'express';
import type { ApiModule } from '../api-module';
import { rateLimitSchema } from './rate-limit.schema';

/** `GET /rate-limit`: the caller's limit and what is left, read without counting the request. */
export const rateLimitModule: ApiModule = {
  name: 'rate-limit',
  schemas: [rateLimitSchema],
  routes() {
    const router = Router();
    router.get('/rate-limit', (_req, res) => {
      const state = res.locals.rateLimit as GateResult;
      res.setHeader('Cache-Control', 'no-store');
      res.json({ limit: state.limit, remaining: state.remaining });
    });
    return router;
  },
};
