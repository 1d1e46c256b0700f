import { z } from 'zod';
import { ValidationFailedError } from '../errors';
import { ZodValidationPipe } from './zod-validation.pipe';

const pipe = new ZodValidationPipe(z.strictObject({ name: z.string().min(1), tags: z.array(z.string()).optional() }), 'body');

function failure(value: unknown): ValidationFailedError {
  try {
    pipe.transform(value);
  } catch (e) {
    if (e instanceof ValidationFailedError) return e;
    throw e;
  }
  throw new Error('expected a validation failure');
}

describe('ZodValidationPipe', () => {
  it('returns the parsed value when valid', () => {
    expect(pipe.transform({ name: 'x' })).toEqual({ name: 'x' });
  });

  it('lists each problem with location, dotted path and zod issue code', () => {
    const e = failure({ name: '', tags: ['ok', 3] });
    expect(e.code).toBe('validation-failed');
    expect(e.details).toEqual([
      { location: 'body', path: 'name', issue: 'too_small', message: expect.any(String) },
      { location: 'body', path: 'tags.1', issue: 'invalid_type', message: expect.any(String) },
    ]);
    expect(e.message).toBe('Invalid request body: body.name, body.tags.1. See error.details.');
  });

  it('names every unknown field', () => {
    expect(failure({ name: 'x', a: 1, b: 2 }).details.map((d) => d.path)).toEqual(['a', 'b']);
  });
});
