// The ledger suites again, every query through a private PgBouncer in transaction mode (through-pgbouncer.ts).
import { expectTrafficThroughPgBouncer } from '../../../../../jest/through-pgbouncer';
import '../ledger/me-currency-http.test';
import '../ledger/me-ledger-http.test';
import '../ledger/sums-http.test';
import '../ledger/sums-rows.test';
import '../ledger/currencies-http.test';
import '../ledger/entry-locations-http.test';
import '../ledger-balances.test';
import '../ledger-merge.property.test';

expectTrafficThroughPgBouncer(100);
