#!/usr/bin/env node
// `npm test`: install if needed, build, type-check the tests, lint, check formatting, check the architecture's
// rules (import cycles, file size, SQL only in the store), then run every Jest test.
// Extra arguments go to Jest (`npm test -- services/auth`).
import { build, ensureInstalled, run } from './workspace.mjs';

const step = (name) => process.stdout.write(`\n== ${name}\n`);

step('install');
ensureInstalled();
step('build');
build();
step('type-check tests');
run('tsc', ['-p', 'tsconfig.test.json']);
step('lint');
run('eslint', ['.', '--max-warnings=0']);
step('format');
run('prettier', ['--check', '.', '--log-level', 'warn']);
step('architecture');
await import('./check-architecture.mjs');
step('jest');
run('jest', process.argv.slice(2));
