import { LRUCache } from 'lru-cache';

/** proxy-addr's compiled `trust proxy` test: is the hop `address`, `hop` steps from the socket, trusted? */
export type TrustTest = (address: string, hop: number) => boolean;

/**
 * Distinct (address, hop) answers kept; the least recently used go first, so a flood of addresses costs only
 * re-parsing.
 */
const MAX_ANSWERS = 1_024;

/**
 * The same test, its answers kept per address and hop. Express asks it on every `req.ip` and `req.secure`
 * (`req.protocol`), and proxy-addr parses the address with ipaddr.js each time, about a microsecond of a
 * `GET /me` that the replay of its bytes does not pay (docs/bench.md, session 8). The answer depends on the
 * address and hop only (the setting is fixed at boot), so a kept answer is the one the test would give.
 */
export function memoizedTrust(trust: TrustTest): TrustTest {
  const answers = new LRUCache<string, boolean>({ max: MAX_ANSWERS });
  return (address, hop) => {
    const key = `${hop} ${address}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = trust(address, hop);
      answers.set(key, answer);
    }
    return answer;
  };
}
