import { apiModule } from '../api-module';
import { rateLimitSchema } from './rate-limit.schema';

/** `GET /rate-limit`: the caller's limit and what is left, read without counting the request. */
export const rateLimitModule = apiModule({
  name: 'rate-limit',
  resources: [{ schema: rateLimitSchema, rels: ['self'] }],
  operations: [
    {
      resource: 'rate-limit',
      rel: 'self',
      method: 'GET',
      href: '/rate-limit',
      title: 'The limit and the requests left in this window',
      target: 'object',
      // A live count, answered no-store: nothing to revalidate.
      cacheable: false,
      handler: 'self',
    },
  ],
  handlers: () => ({
    self: (ctx, _req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json({ limit: ctx.rateLimit.limit, remaining: ctx.rateLimit.remaining });
    },
  }),
});
