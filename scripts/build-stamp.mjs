// Whether the build is current, without running tsc: `tsc -b` on an unchanged tree still reads every
// project (seconds), too slow for an operator command that should start in well under a second.
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './pnpm.mjs';

const STAMP = join(repoRoot, 'node_modules', '.pfs-build-stamp');
const ROOTS = ['libs', 'services'];
const INPUTS = /\.(ts|json)$/;

/** Newest modification time of any source, package manifest or tsconfig (node_modules and dist skipped). */
function newestInput(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestInput(path));
    else if (INPUTS.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function buildIsCurrent() {
  if (!existsSync(STAMP)) return false;
  const stamp = statSync(STAMP).mtimeMs;
  const tsconfigs = ['tsconfig.json', 'tsconfig.base.json'].map(
    (name) => statSync(join(repoRoot, name)).mtimeMs,
  );
  return Math.max(...tsconfigs, ...ROOTS.map((root) => newestInput(join(repoRoot, root)))) < stamp;
}

/** Written after a successful build started at `startedAt` (a source saved during the build stays newer). */
export function markBuilt(startedAt) {
  writeFileSync(STAMP, '');
  const seconds = startedAt / 1000;
  // utimes takes seconds; the stamp's time is the build's start, not its end.
  utimesSync(STAMP, seconds, seconds);
}
