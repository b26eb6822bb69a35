import { AppError } from '@pfs/errors';
import { negotiateFormat } from './media-type';

describe('negotiateFormat', () => {
  it.each([
    [undefined, 'vendor'],
    ['', 'vendor'],
    ['application/vnd.service+json', 'vendor'],
    ['application/vnd.service+json; version=1', 'vendor'],
    ['application/vnd.service+json,application/json', 'vendor'],
    ['application/json', 'json'],
    ['application/json;q=0.9, application/vnd.service+json;q=0.5', 'json'],
    ['text/html, */*;q=0.1', 'vendor'],
    ['application/vnd.service+json; version=2, application/json', 'json'],
  ])('when Accept is %p (asked twice), then the format is %s both times', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
    expect(negotiateFormat(accept)).toBe(format);
  });

  it.each(['text/html', 'application/vnd.service+json; version=2', 'application/json;q=0'])(
    'when Accept is %p, then 406',
    (accept) => {
      expect(() => negotiateFormat(accept)).toThrow(AppError);
      try {
        negotiateFormat(accept);
      } catch (error) {
        expect((error as AppError).status).toBe(406);
      }
    },
  );
});
