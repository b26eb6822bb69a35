#!/usr/bin/env node
// The structural rules of ARCHITECTURE.md, checked on every `npm test` so they cannot rot:
// 1. no import cycle (type-only imports included) between the sources of services, libs and bench (madge);
// 2. no source file over 300 lines (tests and migrations aside);
// 3. nothing above the store sees a DataSource or an EntityManager or runs SQL: only libs/resource-store and
//    each service's dependencies.ts may (the bench, a harness that seeds its own data like the tests, aside).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import madge from 'madge';
import { repoRoot } from './pnpm.mjs';

const SOURCE_ROOTS = ['services', 'libs', 'bench'];
const MAX_LINES = 300;
const STORE_ACCESS = /\bDataSource\b|\bEntityManager\b|\.query\(/;

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test', 'migrations'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts'))
      out.push(path);
  }
  return out;
}

const files = SOURCE_ROOTS.flatMap((root) => sourceFiles(join(repoRoot, root)));
const problems = [];

const graph = await madge(
  SOURCE_ROOTS.map((root) => join(repoRoot, root)),
  {
    fileExtensions: ['ts'],
    excludeRegExp: [/node_modules/, /[\\/]dist[\\/]/, /[\\/]test[\\/]/, /\.test\.ts$/],
    detectiveOptions: { ts: { skipTypeImports: false } },
  },
);
for (const cycle of graph.circular()) problems.push(`import cycle: ${cycle.join(' > ')}`);

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const name = relative(repoRoot, file).split(sep).join('/');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`${name}: ${lines} lines (at most ${MAX_LINES})`);
  const storeAllowed =
    name.startsWith('bench/') ||
    name.startsWith('libs/resource-store/') ||
    /^services\/[^/]+\/src\/dependencies\.ts$/.test(name);
  if (!storeAllowed) {
    text.split('\n').forEach((line, index) => {
      if (STORE_ACCESS.test(line))
        problems.push(`${name}:${index + 1}: store access above the store: ${line.trim()}`);
    });
  }
}

if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `architecture: ${files.length} source files, no cycle, none over ${MAX_LINES} lines, SQL only in the store\n`,
);
