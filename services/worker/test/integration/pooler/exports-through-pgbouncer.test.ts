// The export pipeline's suites again (rows streamed by DECLARE CURSOR / FETCH inside one read-only
// transaction, status moves, the sweeper's singleton lock), every query through a private PgBouncer in
// transaction mode (jest/through-pgbouncer.ts).
import { expectTrafficThroughPgBouncer } from '../../../../../jest/through-pgbouncer';
import '../export-pipeline.test';
import '../export-ofx.test';
import '../export-budgets.test';
import '../export-filters.test';
import '../export-repair.test';

expectTrafficThroughPgBouncer(50);
