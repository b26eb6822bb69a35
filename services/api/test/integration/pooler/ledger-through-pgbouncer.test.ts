// The ledger suites again, every query through a private PgBouncer in transaction mode (through-pgbouncer.ts).
import { expectTrafficThroughPgBouncer } from '../../../../../jest/through-pgbouncer';
import '../ledger/entries-http.test';
import '../ledger/entries-plans.test';
import '../ledger/entries-stored-pages.test';
import '../ledger/accounts-http.test';
import '../ledger/references-http.test';

expectTrafficThroughPgBouncer(100);
