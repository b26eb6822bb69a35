import type { BenchSuite } from '../bench-suite';

/**
 * Authenticated GET /me: token lookup, rate limit and one profile read. Target: throughput at 10
 * connections >= 60% of the bare Express endpoint's; its single-client latency is shown beside it.
 */
export const meSuite: BenchSuite = {
  name: 'me',
  async run(context) {
    const user = await context.createUser();
    const request = { url: `${context.apiUrl}/me`, headers: { authorization: user.auth } };
    await context.measure({
      ...request,
      name: 'GET /me throughput',
      connections: 10,
      target: { kind: 'vsBare', min: 0.6 },
    });
    await context.measure({ ...request, name: 'GET /me latency', connections: 1 });
  },
};
