import { describe, expect, it } from '@jest/globals';
import { errorSummary } from './logger.js';

/** What the database driver emits: its error carries SQLSTATE fields and the whole client. */
function driverError(): Error {
  const error = new Error('terminating connection due to administrator command') as Error & Record<string, unknown>;
  error.name = 'error';
  Object.assign(error, { severity: 'FATAL', code: '57P01', routine: 'ProcessInterrupts', client: { connectionParameters: { password: 'x' }, _types: { builtins: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`T${i}`, i])) } } });
  return error;
}

describe('errorSummary (the logger err serializer)', () => {
  it('given a driver error with its client, then one short line: type, message, code and where it was thrown', () => {
    const summary = errorSummary(driverError());
    expect(summary).toEqual({ type: 'Error', message: 'terminating connection due to administrator command', code: '57P01', at: expect.stringContaining('logger.unit.test.ts') });
    expect(JSON.stringify(summary).length).toBeLessThan(400);
  });

  it('given the debug level, then the whole stack too', () => {
    const error = driverError();
    expect(errorSummary(error, true)).toMatchObject({ code: '57P01', stack: error.stack });
  });

  it('given a long message or something that is not an Error, then a bounded message', () => {
    expect((errorSummary(new Error('x'.repeat(5_000))).message as string).length).toBe(300);
    expect(errorSummary({ message: 'plain object' })).toEqual({ message: 'plain object' });
    expect(errorSummary('text')).toEqual({ message: 'text' });
  });
});
