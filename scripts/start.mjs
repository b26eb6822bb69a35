#!/usr/bin/env node
// `npm start`: install what is missing, build, create and migrate the database, then run auth, api and
// the worker together in the foreground, as their supervisor (docs/operations.md, "Process
// supervision and shutdown"): a service that crashes is restarted with backoff, the others keep running;
// SIGTERM or one Ctrl-C gives every service exactly one signal and waits for each to drain and exit.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { build, ensureInstalled, fail, repoRoot } from './workspace.mjs';

ensureInstalled();
build();

const migrate = spawnSync(process.execPath, [join(repoRoot, 'services/cli/dist/main.js'), 'migrate'], {
  stdio: 'inherit',
});
if (migrate.status !== 0)
  fail('migrating the database failed (is Postgres running on DATABASE_URL?)', migrate.status ?? 1);

const services = ['auth', 'api', 'worker'];
/** Restart delays double from the first to the last; a run this long resets them. */
const FIRST_RESTART_MS = Number(process.env.START_RESTART_DELAY_MS ?? 1_000);
const LAST_RESTART_MS = 30_000;
const STABLE_AFTER_MS = 30_000;
/** This many crashes in a row, each before the service ran STABLE_AFTER_MS, is a broken setup: give up. */
const MAX_QUICK_CRASHES = 5;

const children = new Map();
const restartTimers = new Map();
const quickCrashes = new Map();
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

function exitWhenAllStopped() {
  if (stopping && children.size === 0 && restartTimers.size === 0) process.exit(exitCode);
}

function stopAll(signal) {
  if (stopping) {
    // A second Ctrl-C (or SIGTERM) is the operator insisting: pass it on, and the services exit at once.
    for (const child of children.values()) child.kill(signal);
    return;
  }
  stopping = true;
  for (const timer of restartTimers.values()) clearTimeout(timer);
  restartTimers.clear();
  for (const child of children.values()) child.kill(signal);
  exitWhenAllStopped();
}

// The export worker streams every export; a bounded heap (old space, and a 4 MB young generation semi-space
// instead of V8's 16 MB) keeps its memory flat (docs/exports.md). Its Dockerfile and the exports bench use
// the same bounds.
const nodeArgs = { worker: ['--max-old-space-size=128', '--max-semi-space-size=4'] };

function startService(name) {
  const startedAt = Date.now();
  const child = spawn(
    process.execPath,
    [...(nodeArgs[name] ?? []), join(repoRoot, `services/${name}/dist/main.js`)],
    {
      // Its own process group: a terminal's Ctrl-C reaches only this supervisor, which passes on exactly
      // one signal (a service treats a second signal as "exit now", skipping its drain).
      detached: true,
      // The IPC channel lives as long as this supervisor: a service sees it close if we die, and stops.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: process.env,
    },
  );
  prefixLines(name, child.stdout, process.stdout);
  prefixLines(name, child.stderr, process.stderr);
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      exitWhenAllStopped();
      return;
    }
    const ranMs = Date.now() - startedAt;
    const crashes = ranMs >= STABLE_AFTER_MS ? 1 : (quickCrashes.get(name) ?? 0) + 1;
    quickCrashes.set(name, crashes);
    if (crashes >= MAX_QUICK_CRASHES) {
      process.stderr.write(`[${name}] exited (${signal ?? code}) ${crashes} times in a row; stopping all\n`);
      exitCode = 1;
      stopAll('SIGTERM');
      return;
    }
    const delay = Math.min(FIRST_RESTART_MS * 2 ** (crashes - 1), LAST_RESTART_MS);
    process.stderr.write(`[${name}] exited (${signal ?? code}); restarting in ${delay} ms\n`);
    restartTimers.set(
      name,
      setTimeout(() => {
        restartTimers.delete(name);
        startService(name);
      }, delay),
    );
  });
}

for (const name of services) startService(name);

process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGHUP', () => stopAll('SIGTERM'));
// Whatever ends this process, no service outlives it still listening.
process.on('exit', () => {
  for (const child of children.values()) child.kill('SIGKILL');
});
