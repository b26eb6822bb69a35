import fc from 'fast-check';
import { SyncTokens } from './sync-token';

describe('SyncTokens', () => {
  const tokens = new SyncTokens('a-secret-of-enough-length');

  it('when a watermark is issued, then it reads back only for the same user and endpoint', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 62n }), fc.nat(), (seq, user) => {
        const value = tokens.issueWatermark(String(user), 'tags', String(seq));
        expect(tokens.readWatermark(String(user), 'tags', value)).toBe(String(seq));
        expect(() => tokens.readWatermark(String(user), 'categories', value)).toThrow();
        expect(() => tokens.readWatermark(String(user + 1), 'tags', value)).toThrow();
      }),
    );
  });

  it('when a value is altered or made up, then it is refused', () => {
    const value = tokens.issueWatermark('1', 'tags', '41');
    expect(() => tokens.readWatermark('1', 'tags', value.replace(/^41/, '42'))).toThrow();
    expect(() => tokens.readWatermark('1', 'tags', '41')).toThrow();
    expect(() =>
      tokens.readWatermark(
        '1',
        'tags',
        new SyncTokens('another-secret-value').issueWatermark('1', 'tags', '41'),
      ),
    ).toThrow();
  });
});
