import { connect, Socket } from 'node:net';
import { once } from 'node:events';
import { startHttpServer, RunningHttpServer } from './http-server';

/** A raw client: what it sends and when is up to the test, and everything the server answers is kept. */
async function rawClient(
  url: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => undefined);
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  return { socket, received: () => received, closed };
}

/** Echoes the body's length once it is all in; `/slow` answers after 400 ms. */
const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
  let length = 0;
  req.on('data', (chunk: Buffer) => (length += chunk.length));
  req.on('end', () => {
    setTimeout(() => res.end(JSON.stringify({ length })), req.url === '/slow' ? 400 : 0);
  });
};

describe('startHttpServer timeouts', () => {
  let running: RunningHttpServer;
  beforeAll(async () => {
    running = await startHttpServer(handler, {
      port: 0,
      timeouts: { headersTimeoutMs: 600, requestTimeoutMs: 5_000, bodyIdleTimeoutMs: 300 },
    });
  });
  afterAll(() => running.stop(100));

  it('when a client sends the headers and then stalls the body, then it gets 408 JSON and is cut off', async () => {
    const client = await rawClient(running.url);
    client.socket.write(
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    const closedAfter = await client.closed;
    expect(closedAfter).toBeLessThan(2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.received()).toContain('"error_id":"error.request.timeout"');
  });

  it('when a body arrives slowly but steadily, then it is read whole (the timer is per pause)', async () => {
    const client = await rawClient(running.url);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 6\r\n\r\n');
    for (let i = 0; i < 6; i += 1) {
      client.socket.write('x');
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received()).toContain('{"length":6}');
  });

  it('when a client stalls in the middle of its headers, then the connection is closed', async () => {
    const client = await rawClient(running.url);
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const closedAfter = await client.closed;
    expect(closedAfter).toBeLessThan(3_000);
    expect(client.received()).not.toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('startHttpServer keep-alive of answers given at once', () => {
  let running: RunningHttpServer;
  /** Answers in the request's first synchronous part, before Node has seen the request's end. */
  const atOnce = (_req: unknown, res: import('node:http').ServerResponse) => res.end('ok');
  beforeAll(async () => {
    running = await startHttpServer(atOnce, { port: 0 });
  });
  afterAll(() => running.stop(100));

  it('when a request without a body is answered at once, then the connection stays open for the next one', async () => {
    const client = await rawClient(running.url);
    client.socket.write('GET /me HTTP/1.1\r\nHost: x\r\n\r\nGET /me HTTP/1.1\r\nHost: x\r\n\r\n');
    while (client.received().split('HTTP/1.1 200').length < 3)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.received().toLowerCase()).not.toContain('connection: close');
    expect(client.socket.destroyed).toBe(false);
    client.socket.destroy();
  });

  it('when a request with a body is answered before the body is read, then the connection closes with it', async () => {
    const client = await rawClient(running.url);
    client.socket.write('POST /me HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received().toLowerCase()).toContain('connection: close');
  });
});

describe('startHttpServer shutdown', () => {
  it('when stopped, then idle keep-alive sockets close at once, the in-flight request finishes, and stop resolves', async () => {
    const running = await startHttpServer(handler, { port: 0 });
    const idle = await rawClient(running.url);
    idle.socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!idle.received().includes('{"length":0}')) await new Promise((resolve) => setTimeout(resolve, 10));
    const busy = await rawClient(running.url);
    busy.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));

    const stopStarted = Date.now();
    const stopped = running.stop(10_000).then(() => Date.now() - stopStarted);
    const idleClosed = idle.closed.then(() => Date.now() - stopStarted);
    expect(await idleClosed).toBeLessThan(200);
    await busy.closed;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(busy.received()).toContain('{"length":0}');
    expect(busy.received().toLowerCase()).toContain('connection: close');
    // Well before keepAliveTimeout (5 s): the finished keep-alive socket did not hold the close open.
    expect(await stopped).toBeLessThan(2_000);
    expect(running.server.listening).toBe(false);
  });
});
