import type { BenchSuite } from '../bench-suite';
import { budgetsSuite } from './budgets.bench';
import { categoriesSuite } from './categories.bench';
import { entriesSuite } from './entries.bench';
import { exportsSuite } from './exports.bench';
import { importsSuite } from './imports.bench';
import { meSuite } from './me.bench';
import { meCurrencySuite } from './me-currency.bench';
import { mergeSuite } from './merge.bench';
import { scaleSuite } from './scale.bench';
import { tokensSuite } from './tokens.bench';
import { webhooksSuite } from './webhooks.bench';
import { writesSuite } from './writes.bench';

/** Every suite `npm run bench` runs, in order; `npm run bench -- <name>` runs the named ones only. */
export const suites: BenchSuite[] = [
  meSuite,
  entriesSuite,
  writesSuite,
  tokensSuite,
  categoriesSuite,
  exportsSuite,
  importsSuite,
  webhooksSuite,
  mergeSuite,
  meCurrencySuite,
  budgetsSuite,
  scaleSuite,
];
