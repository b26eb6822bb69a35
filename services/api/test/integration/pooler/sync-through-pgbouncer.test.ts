// The sync suites again, and the repeat materializer's singleton lock, every query through a private
// PgBouncer in transaction mode (through-pgbouncer.ts).
import { expectTrafficThroughPgBouncer } from '../../../../../jest/through-pgbouncer';
import '../conventions/pagination-sync.test';
import '../conventions/sync.property.test';
import '../budgets/budgets-sync-caching.test';
import '../repeats/repeats-materialize.test';

expectTrafficThroughPgBouncer(100);
