import express from 'express';
import request from 'supertest';
import { memoizedTrust, type TrustTest } from '../../src/http/memoized-trust';

/** Express's own compiled `trust proxy` test for `setting`. */
function compiled(setting: string | number | boolean): TrustTest {
  return express().set('trust proxy', setting).get('trust proxy fn') as TrustTest;
}

const addresses = ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '192.168.0.9', '8.8.8.8', 'not-an-ip'];

describe('memoizedTrust', () => {
  it.each<[string | number | boolean]>([['loopback'], ['10.0.0.0/8, 127.0.0.1'], [2], [true], [false]])(
    'when asked twice with the setting %p, then each answer is the compiled test’s, for every address and hop',
    (setting) => {
      const trust = compiled(setting);
      const memo = memoizedTrust(trust);
      for (let round = 0; round < 2; round += 1)
        for (const address of addresses)
          for (const hop of [0, 1, 2, 3]) expect(memo(address, hop)).toBe(trust(address, hop));
    },
  );

  it('when the app uses it, then req.ip and req.secure read X-Forwarded-* only from a trusted hop, as before', async () => {
    const app = express().set('trust proxy', '10.0.0.0/8');
    app.set('trust proxy fn', memoizedTrust(app.get('trust proxy fn') as TrustTest));
    app.get('/', (req, res) => {
      res.json({ ip: req.ip, secure: req.secure });
    });
    // supertest connects from loopback, which this setting does not trust: the headers are ignored.
    const untrusted = await request(app)
      .get('/')
      .set('X-Forwarded-For', '1.2.3.4')
      .set('X-Forwarded-Proto', 'https');
    expect(untrusted.body.secure).toBe(false);
    expect(untrusted.body.ip).not.toBe('1.2.3.4');

    const loopback = express().set('trust proxy', 'loopback');
    loopback.set('trust proxy fn', memoizedTrust(loopback.get('trust proxy fn') as TrustTest));
    loopback.get('/', (req, res) => {
      res.json({ ip: req.ip, secure: req.secure });
    });
    for (let i = 0; i < 2; i += 1) {
      const trusted = await request(loopback)
        .get('/')
        .set('X-Forwarded-For', '1.2.3.4')
        .set('X-Forwarded-Proto', 'https');
      expect(trusted.body).toEqual({ ip: '1.2.3.4', secure: true });
    }
  });
});
