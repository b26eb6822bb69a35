import { webhookUrlPolicyOf } from '@pfs/config';
import {
  addressProblem,
  HostLookup,
  parseWebhookUrl,
  resolveWebhookTarget,
  WebhookUrlRefused,
} from './webhook-address';
import { webhookAttempts, webhookRetryDelayMs } from './webhook-job';

const open = { requireHttps: false, allowLoopback: false };

/** A resolver answering fixed addresses: what a hostile DNS server could answer for its own name. */
const answering =
  (...addresses: string[]): HostLookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('webhook URL policy', () => {
  it('when the service runs in production, then only https URLs are accepted', () => {
    const production = webhookUrlPolicyOf({ NODE_ENV: 'production', WEBHOOK_ALLOW_LOOPBACK: false });
    expect(production.requireHttps).toBe(true);
    expect(() => parseWebhookUrl('http://example.com/hook', production)).toThrow('must be an https URL');
    expect(parseWebhookUrl('https://example.com/hook', production).hostname).toBe('example.com');
    expect(webhookUrlPolicyOf({ NODE_ENV: 'development', WEBHOOK_ALLOW_LOOPBACK: false }).requireHttps).toBe(
      false,
    );
  });

  it.each([
    ['127.0.0.1', 'is a loopback address'],
    ['::1', 'is a loopback address'],
    ['::ffff:127.0.0.1', 'is a loopback address'],
    ['10.1.2.3', 'is a private address'],
    ['::ffff:192.168.0.1', 'is a private address'],
    ['169.254.169.254', 'is a linkLocal address'],
    ['fe80::1', 'is a linkLocal address'],
    ['ff02::1', 'is a multicast address'],
    ['239.1.1.1', 'is a multicast address'],
    ['0.0.0.0', 'is a unspecified address'],
    ['::', 'is a unspecified address'],
    ['fc00::1', 'is a uniqueLocal address'],
    ['64:ff9b::a00:1', 'is a rfc6052 address'],
    ['2002:7f00:1::', 'is a 6to4 address'],
    ['::7f00:1', 'is not a global unicast address'],
  ])('when a host resolves to %s, then it %s', (address, problem) => {
    expect(addressProblem(address, open)).toBe(problem);
  });

  it('when an address is public unicast, then it passes; loopback passes only when allowed', () => {
    expect(addressProblem('93.184.216.34', open)).toBeUndefined();
    expect(addressProblem('2606:2800:220:1:248:1893:25c8:1946', open)).toBeUndefined();
    expect(addressProblem('127.0.0.1', { ...open, allowLoopback: true })).toBeUndefined();
    expect(addressProblem('10.0.0.1', { ...open, allowLoopback: true })).toBe('is a private address');
  });

  it('when a name resolves to a public and a private address, then it is refused (any bad address refuses)', async () => {
    const url = new URL('https://rebind.example/hook');
    await expect(resolveWebhookTarget(url, open, answering('93.184.216.34', '10.0.0.5'))).rejects.toThrow(
      new WebhookUrlRefused('host rebind.example resolves to 10.0.0.5, which is a private address'),
    );
    const target = await resolveWebhookTarget(url, open, answering('93.184.216.34'));
    expect(target).toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('when a name does not resolve, then it is refused', async () => {
    const failing: HostLookup = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(resolveWebhookTarget(new URL('https://nowhere.invalid/'), open, failing)).rejects.toThrow(
      'host nowhere.invalid does not resolve',
    );
  });
});

describe('webhook retry schedule', () => {
  it('when the defaults apply, then retries double from 30 s, cap at 4 h and the last attempt falls at 24 h', () => {
    const policy = { baseMs: 30_000, maxDelayMs: 4 * 3600_000, windowMs: 86_400_000 };
    const attempts = webhookAttempts(policy);
    const delays = Array.from({ length: attempts - 1 }, (_, index) => webhookRetryDelayMs(policy, index + 1));
    expect(delays.slice(0, 3)).toEqual([30_000, 60_000, 120_000]);
    expect(Math.max(...delays)).toBe(4 * 3600_000);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBe(86_400_000);
    // The last retry is shortened to end the window: 13 retries reach about 20.3 h, the 14th ends at 24 h.
    expect(attempts).toBe(15);
    expect(delays[delays.length - 1]).toBeLessThan(4 * 3600_000);
    expect(delays.slice(0, -1).every((delay) => delay <= 4 * 3600_000)).toBe(true);
  });
});
