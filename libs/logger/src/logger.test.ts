import { createConnection } from 'node:net';
import { createLogger } from './logger';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    name: 'test',
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

describe('createLogger', () => {
  it('when an error with a code is logged, then the line keeps the code (ECONNREFUSED stays visible)', async () => {
    const refused = await new Promise<Error>((resolve) =>
      createConnection(1, '127.0.0.1').on('error', resolve),
    );
    const { logger, lines } = capture();
    logger.error({ err: new Error('cannot reach Postgres', { cause: refused }) }, 'start failed');
    logger.error({ err: refused }, 'start failed');
    expect(lines[0].err).toMatchObject({ message: expect.stringContaining('cannot reach Postgres') });
    expect(JSON.stringify(lines[0].err)).toContain('ECONNREFUSED');
    expect(lines[1].err).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
  });

  it('when an OAuth code or a password is logged in a body, then it is redacted', () => {
    const { logger, lines } = capture();
    logger.info({ body: { code: 'oauth-code-123', password: 'hunter2' } }, 'form');
    expect(lines[0].body).toEqual({ code: '[redacted]', password: '[redacted]' });
  });
});
