import { Router } from 'express';
import { requestContext } from '../../http/request-context';
import type { ApiModule } from '../api-module';
import { rateLimitSchema } from './rate-limit.schema';

/** `GET /rate-limit`: the caller's limit and what is left, read without counting the request. */
export const rateLimitModule: ApiModule = {
  name: 'rate-limit',
  schemas: [rateLimitSchema],
  routes() {
    const router = Router();
    router.get('/rate-limit', (req, res) => {
      const state = requestContext(req).rateLimit;
      res.setHeader('Cache-Control', 'no-store');
      res.json({ limit: state.limit, remaining: state.remaining });
    });
    return router;
  },
};
