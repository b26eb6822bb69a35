#!/usr/bin/env node
// `npm test`: install if needed, build, type-check the tests, lint, check formatting, then run every Jest test.
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
step('jest');
run('jest', process.argv.slice(2));
