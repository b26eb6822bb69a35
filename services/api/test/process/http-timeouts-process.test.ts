import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';

/**
 * Each service from its build, with short request timeouts from its environment: a client that sends
 * its headers and then stalls the body is cut off (the api, auth and the worker's health server alike).
 */
const repoRoot = join(__dirname, '../../../..');

const services = [
  { name: 'auth', portVariable: 'AUTH_PORT', path: '/oauth/token' },
  { name: 'api', portVariable: 'API_PORT', path: '/categories' },
  { name: 'worker', portVariable: 'WORKER_PORT', path: '/health' },
];

describe.each(services)('$name process', ({ name, portVariable, path }) => {
  it('when a client sends headers and then stalls the body, then the connection is cut within the body timeout', async () => {
    const child = spawn(process.execPath, [join(repoRoot, `services/${name}/dist/main.js`)], {
      env: { ...process.env, [portVariable]: '0', HTTP_BODY_TIMEOUT_MS: '400', LOG_LEVEL: 'info' },
      stdio: 'pipe',
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    try {
      const deadline = Date.now() + 20_000;
      let url: string | undefined;
      while (!(url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1])) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`${name} did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      const sent = Date.now();
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
      );
      await once(socket, 'close');
      expect(Date.now() - sent).toBeLessThan(3_000);
      // Either our 408, or the route's own early answer (a 401 before the body is read): never a hang.
      expect(received).toMatch(/^HTTP\/1\.1 (408|4\d\d) /);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);
});
