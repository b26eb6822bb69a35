import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Runs `script` in a child process with the built logger, collecting stdout with the time each chunk came. */
function runLogging(
  script: string,
): Promise<{ lines: Array<{ msg: string; at: number }>; exitCode: number | null }> {
  const logger = join(__dirname, '../dist/index.js');
  const child = spawn(process.execPath, [
    '-e',
    `const { bufferedStdout, createLogger } = require(${JSON.stringify(logger)});
     const log = createLogger({ name: 'test', level: 'info', destination: bufferedStdout() });
     ${script}`,
  ]);
  const started = Date.now();
  const lines: Array<{ msg: string; at: number }> = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const complete = (partial + chunk.toString()).split('\n');
    partial = complete.pop()!;
    for (const line of complete) lines.push({ msg: JSON.parse(line).msg, at: Date.now() - started });
  });
  return new Promise((resolve) => child.on('close', (exitCode) => resolve({ lines, exitCode })));
}

describe('bufferedStdout', () => {
  it('when a quiet process logs one line, then it is written within the flush interval, not held until exit', async () => {
    const { lines } = await runLogging(`log.info('alone'); setTimeout(() => log.info('late'), 3000);`);
    expect(lines.map((line) => line.msg)).toEqual(['alone', 'late']);
    // Written long before the next line (a batch that waited for 4 KB or the exit would come with it).
    expect(lines[1].at - lines[0].at).toBeGreaterThan(1500);
  });

  it('when the process exits or crashes with lines buffered, then they are written first', async () => {
    const exiting = await runLogging(`for (let i = 0; i < 100; i++) log.info('line ' + i); process.exit(0);`);
    expect(exiting.lines).toHaveLength(100);
    const crashing = await runLogging(`log.info('before the crash'); throw new Error('boom');`);
    expect(crashing.exitCode).not.toBe(0);
    expect(crashing.lines.map((line) => line.msg)).toEqual(['before the crash']);
  });
});
