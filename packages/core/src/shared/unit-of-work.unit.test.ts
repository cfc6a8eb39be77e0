import { describe, expect, it } from '@jest/globals';
import { TransactionConflict, transactionWithRetry, type UnitOfWork } from './unit-of-work.js';

/** A unit of work whose transactions fail with the given errors, in order, then run the work. */
function failingFirst(...errors: Error[]): UnitOfWork & { runs: number } {
  const uow = {
    runs: 0,
    async transaction<T>(work: (repos: never) => Promise<T>): Promise<T> {
      uow.runs += 1;
      const error = errors.shift();
      if (error) throw error;
      return work({} as never);
    },
  };
  return uow;
}

describe('transactionWithRetry', () => {
  it('given a transaction chosen as a conflict victim once, then the work runs again and its answer is returned', async () => {
    const uow = failingFirst(new TransactionConflict(new Error('deadlock detected')));
    await expect(transactionWithRetry(uow, async () => 'done')).resolves.toBe('done');
    expect(uow.runs).toBe(2);
  });

  it('given conflicts on every attempt, then the last conflict is thrown after the attempts', async () => {
    const uow = failingFirst(...[1, 2, 3, 4].map((n) => new TransactionConflict(new Error(`deadlock ${n}`))));
    await expect(transactionWithRetry(uow, async () => 'done', 3)).rejects.toThrow('deadlock 3');
    expect(uow.runs).toBe(3);
  });

  it('given any other error, then it is thrown at once', async () => {
    const uow = failingFirst(new Error('not found'));
    await expect(transactionWithRetry(uow, async () => 'done')).rejects.toThrow('not found');
    expect(uow.runs).toBe(1);
  });
});
