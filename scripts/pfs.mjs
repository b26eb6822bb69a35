#!/usr/bin/env node
// The operator CLI: `npm run --silent pfs -- <command>`. Installs and builds quietly first (to stderr),
// so stdout carries only the command's JSON.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIsCurrent, markBuilt } from './build-stamp.mjs';
import { build, ensureInstalled, repoRoot } from './workspace.mjs';

ensureInstalled({ quiet: true });
// The full incremental build only when a source changed since the last one (docs/operations.md#operator-cli).
if (!buildIsCurrent()) {
  const startedAt = Date.now();
  build({ quiet: true });
  markBuilt(startedAt);
}
const result = spawnSync(
  process.execPath,
  [join(repoRoot, 'services/cli/dist/main.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
