import { AppError, inputError } from './app-error';
import { serializeError } from './serialize-error';

describe('serializeError', () => {
  it('when a client error is thrown, then its id, description and fields are shown', () => {
    const result = serializeError(inputError([{ field: 'per_page', error: 'must be at most 500' }]), 'req-1');
    expect(result.status).toBe(400);
    expect(result.isServerFault).toBe(false);
    expect(result.body).toEqual({
      error_id: 'error.input',
      description: 'The request has invalid fields.',
      fields: [{ field: 'per_page', error: 'must be at most 500' }],
    });
  });

  it('when an unknown error is thrown, then a generic 500 with the request id hides its message', () => {
    const result = serializeError(new Error('password=hunter2 in SQL'), 'req-2');
    expect(result.status).toBe(500);
    expect(result.isServerFault).toBe(true);
    expect(JSON.stringify(result.body)).not.toContain('hunter2');
    expect(result.body).toMatchObject({ error_id: 'error.internal', request_id: 'req-2' });
  });

  it('when a body parser reports malformed JSON, then it is a 400 input error', () => {
    const parserError = Object.assign(new Error('Unexpected token'), {
      status: 400,
      type: 'entity.parse.failed',
    });
    expect(serializeError(parserError)).toMatchObject({ status: 400, body: { error_id: 'error.input' } });
  });

  it('when a 5xx AppError is thrown, then its description is not exposed', () => {
    const result = serializeError(new AppError('UNAVAILABLE', { description: 'redis at 10.0.0.5 down' }));
    expect(result.status).toBe(503);
    expect(JSON.stringify(result.body)).not.toContain('10.0.0.5');
  });
});
