#!/usr/bin/env node
// `npm run bench [-- suite…]`: installs and builds if needed, then runs bench/dist/main.js (see bench/src/main.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build, ensureInstalled, repoRoot } from './workspace.mjs';

ensureInstalled();
build();
const result = spawnSync(process.execPath, [join(repoRoot, 'bench/dist/main.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
