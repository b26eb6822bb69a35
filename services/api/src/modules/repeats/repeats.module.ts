import { ledgerDepsOf } from '../../ledger-deps';
import type { ApiModule } from '../api-module';
import { startRepeatTimer } from './repeat-timer';

/**
 * Repeating entries. Their routes are the entries' (a repeat rule is part of an entry: entries and reports
 * use this folder's use cases); the module's own part is the materializer timer, which creates due
 * occurrences every REPEAT_MATERIALIZE_INTERVAL_SECONDS while the process runs.
 */
export const repeatsModule: ApiModule = {
  name: 'repeats',
  start: (deps) =>
    startRepeatTimer(ledgerDepsOf(deps), deps.logger, deps.config.REPEAT_MATERIALIZE_INTERVAL_SECONDS),
};
