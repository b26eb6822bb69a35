import type { BenchSuite } from '../bench-suite';

/** Authenticated GET /me: token lookup, rate limit and one profile read, against the bare baseline. */
export const meSuite: BenchSuite = {
  name: 'me',
  async run(context) {
    const user = await context.createUser();
    await context.measure({
      name: 'GET /me (authenticated)',
      url: `${context.apiUrl}/me`,
      headers: { authorization: user.auth },
    });
  },
};
