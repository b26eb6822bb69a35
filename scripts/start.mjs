#!/usr/bin/env node
// `npm start`: install what is missing, build, create and migrate the database, then run auth, api and
// the export worker together in the foreground until Ctrl-C (SIGINT/SIGTERM reach every service).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build, ensureInstalled, fail, repoRoot } from './workspace.mjs';

ensureInstalled();
build();

const migrate = spawnSync(process.execPath, [join(repoRoot, 'services/cli/dist/main.js'), 'migrate'], {
  stdio: 'inherit',
});
if (migrate.status !== 0)
  fail('migrating the database failed (is Postgres running on DATABASE_URL?)', migrate.status ?? 1);

const services = ['auth', 'api', 'export-worker'];
const children = new Map();
let stopping = false;
let exitCode = 0;

function prefixLines(name, stream, target) {
  let buffered = '';
  stream.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) target.write(`[${name}] ${line}\n`);
  });
}

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

// The export worker streams every export; a bounded heap keeps its memory flat (docs/exports.md).
// Its Dockerfile and the exports bench use the same bound.
const nodeArgs = { 'export-worker': ['--max-old-space-size=128'] };

for (const name of services) {
  const child = spawn(
    process.execPath,
    [...(nodeArgs[name] ?? []), join(repoRoot, `services/${name}/dist/main.js`)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    },
  );
  prefixLines(name, child.stdout, process.stdout);
  prefixLines(name, child.stderr, process.stderr);
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.stderr.write(`[${name}] exited (${signal ?? code}); stopping the others\n`);
      exitCode = code || 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
