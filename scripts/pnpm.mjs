#!/usr/bin/env node
// Runs the pnpm version pinned in package.json#packageManager through npx.
// Corepack cannot verify package signatures on our machines, so we never rely on it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const pnpmSpec = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).packageManager;

/** Runs pnpm with the given arguments; returns the exit code. */
export function runPnpm(args, options = {}) {
  const result = spawnSync('npx', ['--yes', pnpmSpec, ...args], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, COREPACK_ENABLE_STRICT: '0' },
    ...options,
  });
  return result.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(runPnpm(process.argv.slice(2)));
}
