import { buildLinkHeader, parsePageParams } from './pagination';

describe('pagination', () => {
  it('when page and per_page are absent, then 0 and the default apply', () => {
    expect(parsePageParams({})).toEqual({ page: 0, perPage: 200 });
    expect(parsePageParams({}, 50)).toEqual({ page: 0, perPage: 50 });
    expect(parsePageParams({ page: '3', per_page: '10' })).toEqual({ page: 3, perPage: 10 });
  });

  it('when on the first page, then there is no previous; on the last, no next', () => {
    const base = { path: '/tags', rawQuery: 'per_page=10&type=income', perPage: 10, total: 30 };
    expect(buildLinkHeader({ ...base, page: 0, nextCursor: 'abc' })).toBe(
      '</tags?page=0&per_page=10&type=income>; rel="first", </tags?page=1&per_page=10&type=income&cursor=abc>; rel="next", </tags?page=2&per_page=10&type=income>; rel="last"',
    );
    expect(buildLinkHeader({ ...base, page: 2 })).toBe(
      '</tags?page=0&per_page=10&type=income>; rel="first", </tags?page=1&per_page=10&type=income>; rel="previous", </tags?page=2&per_page=10&type=income>; rel="last"',
    );
  });

  it('when the list is empty, then first and last are page 0', () => {
    expect(buildLinkHeader({ path: '/c', rawQuery: '', page: 0, perPage: 200, total: 0 })).toBe(
      '</c?page=0&per_page=200>; rel="first", </c?page=0&per_page=200>; rel="last"',
    );
  });

  it('when the query repeats page, per_page or an old cursor, then the link writes them once, page first', () => {
    expect(
      buildLinkHeader({
        path: '/c',
        rawQuery: 'cursor=old&from=2024-01-01&page=5&per_page=10',
        page: 0,
        perPage: 10,
        total: 5,
      }),
    ).toBe(
      '</c?page=0&per_page=10&from=2024-01-01>; rel="first", </c?page=0&per_page=10&from=2024-01-01>; rel="last"',
    );
  });
});
