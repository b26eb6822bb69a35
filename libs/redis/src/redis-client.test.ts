import { createServer } from 'node:net';
import { openRedis } from './redis-client';

/** A loopback port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('openRedis when nothing listens', () => {
  it('then the error says ECONNREFUSED in its message and keeps the code', async () => {
    const port = await closedPort();
    const error = await openRedis({ url: `redis://127.0.0.1:${port}/0`, keyPrefix: 'x:' }).catch((e) => e);
    expect(error.message).toMatch(/^cannot reach Redis: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.cause.code).toBe('ECONNREFUSED');
  });
});
