// Shared steps of the root scripts: install what is missing, build, and run a command.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runPnpm } from './pnpm.mjs';

export { repoRoot };

const bin = (name) => join(repoRoot, 'node_modules', '.bin', name);

/** Installs dependencies when node_modules is absent or older than the lockfile. */
export function ensureInstalled({ quiet = false } = {}) {
  const marker = join(repoRoot, 'node_modules', '.modules.yaml');
  const lock = join(repoRoot, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  const stdio = quiet ? ['ignore', process.stderr, process.stderr] : 'inherit';
  const code = runPnpm(['install', '--frozen-lockfile'], { stdio });
  if (code !== 0) fail('installing dependencies failed', code);
}

/** Runs a tool from node_modules/.bin; exits with its code when it fails. */
export function run(name, args, { quiet = false, env } = {}) {
  const stdio = quiet ? ['ignore', process.stderr, process.stderr] : 'inherit';
  const result = spawnSync(bin(name), args, { cwd: repoRoot, stdio, env: env ?? process.env });
  if (result.status !== 0) fail(`${name} ${args.join(' ')} failed`, result.status ?? 1);
}

/** Compiles every package (incremental: fast when nothing changed). */
export function build(options) {
  run('tsc', ['-b'], options);
}

export function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
