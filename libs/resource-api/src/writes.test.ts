import { applyMergePatch, threeWayMerge } from './writes';

describe('applyMergePatch (RFC 7396 appendix A)', () => {
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('when %j is patched with %j, then the result is %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });
});

describe('threeWayMerge', () => {
  const base = { name: 'a', type: 'expense', extra: { x: 1, y: 2 } };

  it('when client and server changed different fields, then both changes are kept', () => {
    expect(threeWayMerge(base, { ...base, name: 'server' }, { ...base, type: 'income' })).toEqual({
      name: 'server',
      type: 'income',
      extra: { x: 1, y: 2 },
    });
  });

  it('when both changed the same field to different values, then there is no merge', () => {
    expect(threeWayMerge(base, { ...base, name: 'server' }, { ...base, name: 'client' })).toBeUndefined();
  });

  it('when both made the same change, then it merges', () => {
    expect(threeWayMerge(base, { ...base, name: 'same' }, { ...base, name: 'same' })).toEqual({
      ...base,
      name: 'same',
    });
  });

  it('when the client removed a field the server did not touch, then it is removed', () => {
    const { extra: _extra, ...withoutExtra } = base;
    expect(threeWayMerge(base, { ...base, name: 's' }, withoutExtra)).toEqual({ name: 's', type: 'expense' });
  });

  it('when objects differ only in key order, then they are the same', () => {
    expect(
      threeWayMerge(base, { ...base, extra: { y: 2, x: 1 }, name: 's' }, { ...base, type: 'income' }),
    ).toEqual({
      name: 's',
      type: 'income',
      extra: { y: 2, x: 1 },
    });
  });
});
