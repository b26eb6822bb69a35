// The authorization server's suites again (sign-in, codes, tokens, refresh rotation, revocation, personal
// tokens, registered clients), every query through a private PgBouncer in transaction mode
// (jest/through-pgbouncer.ts).
import { expectTrafficThroughPgBouncer } from '../../../../../jest/through-pgbouncer';
import '../authorization-code-flow.test';
import '../personal-tokens.test';
import '../sign-in-session.test';
import '../client-registration.test';
import '../revoke.spec-with-api.test';

expectTrafficThroughPgBouncer(50);
