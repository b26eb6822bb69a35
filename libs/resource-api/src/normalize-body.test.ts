import { normalizeBody } from './normalize-body';

const properties = {
  name: { type: 'string', minLength: 1 },
  note: { type: 'string' },
  kind: { type: 'string', enum: ['a', 'b'] },
  fixed: { type: 'boolean' },
  rate: { type: 'number', exclusiveMinimum: 0 },
  amount: { type: 'number' },
  currency: {
    type: 'object',
    properties: {
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      rate: { type: 'number', exclusiveMinimum: 0 },
    },
  },
  extra: { type: 'object' },
};

describe('normalizeBody (placeholders existing clients send)', () => {
  it('when booleans come as strings, then they become booleans', () => {
    expect(normalizeBody({ fixed: 'false' }, properties)).toEqual({ fixed: false });
    expect(normalizeBody({ fixed: 'true' }, properties)).toEqual({ fixed: true });
  });

  it('when a constrained string is empty or a positive number is 0, then the field is unset', () => {
    expect(normalizeBody({ name: '', kind: '', note: '', rate: 0, amount: 0 }, properties)).toEqual({
      note: '',
      amount: 0,
    });
    expect(normalizeBody({ currency: { code: 'EUR', rate: 0 } }, properties)).toEqual({
      currency: { code: 'EUR' },
    });
  });

  it('when optional fields hold zero-valued placeholders the schema refuses, then they are unset', () => {
    const schema = {
      parent: { type: 'string', pattern: '^[1-9][0-9]*$' },
      date: { type: 'string', format: 'date' },
      order: { type: 'integer', minimum: 0 },
      day: { type: 'integer', minimum: 1 },
      goal: {
        type: 'object',
        required: ['amount', 'start'],
        properties: {
          amount: { type: 'number', exclusiveMinimum: 0 },
          start: { type: 'string', format: 'date' },
        },
      },
    };
    expect(
      normalizeBody({ parent: 0, date: '', order: 0, day: 0, goal: { amount: 0, start: '' } }, schema),
    ).toEqual({ order: 0 });
    expect(normalizeBody({ parent: '0', goal: { amount: 5, start: '' } }, schema)).toEqual({
      goal: { amount: 5 },
    });
    expect(normalizeBody({ parent: '12', date: '2024-01-02' }, schema)).toEqual({
      parent: '12',
      date: '2024-01-02',
    });
  });

  it('when read-only or unknown fields and nulls are sent, then they are dropped; extra is kept verbatim', () => {
    expect(normalizeBody({ id: '1', balance: 3, note: null, extra: { x: null, y: '' } }, properties)).toEqual(
      {
        extra: { x: null, y: '' },
      },
    );
  });

  it('when the body is not an object, then 400', () => {
    for (const body of [null, [], 'x', 3])
      expect(() => normalizeBody(body, properties)).toThrow('invalid fields');
  });
});
