import { join } from 'node:path';

/**
 * The ECB reference-rate history shipped with the code (libs/money/data), imported at first start and by
 * `rates:import`. Resolved from this file so it works from src (tests) and dist (runtime) alike.
 */
export const SHIPPED_RATES_FILE = join(__dirname, '..', 'data', 'ecb-eurofxref-hist.csv');
