import { presentedJson } from '../src/sync/presented-json';

/** A page's line as the statement writes it: `<change_seq> <id> <modified_at as epoch ms> <item>`. */
const line = (changeSeq: number | string, id: number | string, modified: number, item: object | string) =>
  `${changeSeq} ${id} ${modified} ${typeof item === 'string' ? item : JSON.stringify(item)}`;

const items = [
  { id: '12', desc: 'é 😀 \u2028 "quoted" back\\slash', n: 1 },
  { id: '11', desc: 'a\nb', n: -2.5 },
  { id: '9', tags: ['1', '2'] },
  { id: '30' },
];

describe('presentedJson: a presented page’s lines as its JSON array’s bytes', () => {
  it('when every item is written and the lines are in page order, then the bytes are the items’ JSON array', () => {
    const page = [
      line(100, 12, 1764000000123, items[0]),
      line(99, 11, -1, items[1]),
      line(99, 9, 1764000000124, items[2]),
      line(9, 30, 5, items[3]),
    ].join('\n');
    const whole = presentedJson(page, 3)!;
    expect(whole.json.toString()).toBe(JSON.stringify(items.slice(0, 3)));
    expect(whole.hasMore).toBe(true);
    expect(whole.last).toEqual({ changeSeq: '99', id: '9' });
    expect(whole.newest).toEqual(new Date(1764000000124));
    const all = presentedJson(page, 4)!;
    expect(all.json.toString()).toBe(JSON.stringify(items));
    expect([all.hasMore, all.last, all.newest]).toEqual([false, undefined, new Date(1764000000124)]);
  });

  it('when a page has one line or none, or only times before 1970, then it is still the exact array', () => {
    expect(presentedJson(null, 200)).toEqual({ json: Buffer.from('[]'), hasMore: false });
    const one = presentedJson(line(1, 1, -86400000, items[0]), 200)!;
    expect(one.json.toString()).toBe(JSON.stringify([items[0]]));
    expect([one.hasMore, one.newest]).toEqual([false, new Date(-86400000)]);
    const old = presentedJson([line(2, 2, -5, items[1]), line(1, 1, -7, items[2])].join('\n'), 1)!;
    expect(old.json.toString()).toBe(JSON.stringify([items[1]]));
    expect([old.last, old.newest]).toEqual([{ changeSeq: '2', id: '2' }, new Date(-5)]);
  });

  it('when the modification times differ in sign and length, then the newest is the greatest number', () => {
    const cases: Array<[number[], number]> = [
      [[-70, -5, -600], -5],
      [[99, 100, -1], 100],
      [[-100, 0, -99], 0],
      [[1764000000123, 999999999999, 1764000000124], 1764000000124],
    ];
    for (const [times, newest] of cases) {
      const page = times.map((time, index) => line(10 - index, 1, time, items[index])).join('\n');
      expect(presentedJson(page, 3)?.newest).toEqual(new Date(newest));
    }
  });

  it('when an item is left for the caller to present, then the line path takes the page', () => {
    const page = [line(3, 3, 1, items[0]), line(2, 2, 1, '["2",1,2]'), line(1, 1, 1, items[2])].join('\n');
    expect(presentedJson(page, 200)).toBeUndefined();
  });

  it('when the lines are not in page order (by change, then id, as numbers), then the line path takes the page', () => {
    const unordered = [
      [line(9, 1, 1, items[0]), line(10, 1, 1, items[1])],
      [line(10, 9, 1, items[0]), line(10, 10, 1, items[1])],
      [line(10, 5, 1, items[0]), line(10, 5, 1, items[1])],
      [line(20, 1, 1, items[0]), line(19, 1, 1, items[1]), line(19, 2, 1, items[2])],
    ];
    for (const lines of unordered) expect(presentedJson(lines.join('\n'), 200)).toBeUndefined();
    const ordered = [line(100, 1, 1, items[0]), line(99, 1000, 1, items[1]), line(99, 999, 1, items[2])];
    expect(presentedJson(ordered.join('\n'), 200)?.json.toString()).toBe(JSON.stringify(items.slice(0, 3)));
  });

  it('when pages of many lines follow one another, then each is exact (the scratch positions grow and are reused)', () => {
    for (const count of [300, 5, 1000]) {
      const many = Array.from({ length: count }, (_, index) => ({
        id: String(count - index),
        desc: `ü${index}`,
      }));
      const page = many.map((item, index) => line(count - index, count - index, index, item)).join('\n');
      const whole = presentedJson(page, count - 1)!;
      expect(whole.json.toString()).toBe(JSON.stringify(many.slice(0, count - 1)));
      expect(whole.last).toEqual({ changeSeq: '2', id: '2' });
      expect(whole.newest).toEqual(new Date(count - 2));
    }
  });
});
