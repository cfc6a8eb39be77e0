/**
 * A unit of work that notes the repository calls of each transaction it runs (`area.method`, in order):
 * what the lane tests assert on when they bound the round trips of a send.
 */
export function recording<U extends object>(uow: U): U & { transactions: string[][] } {
  const recorded = Object.create(uow) as U & { transactions: string[][] };
  recorded.transactions = [];
  const inner = uow as unknown as { transaction(work: unknown): Promise<unknown> };
  (recorded as unknown as { transaction(work: (repos: unknown) => Promise<unknown>): Promise<unknown> }).transaction = (work) =>
    inner.transaction(((repos: Record<string, object>) => {
      const calls: string[] = [];
      recorded.transactions.push(calls);
      const spied = new Proxy(repos, {
        get: (target, area: string) =>
          new Proxy(target[area]!, {
            get: (repo, method: string) => {
              const value = (repo as Record<string, unknown>)[method];
              return typeof value === 'function' ? (...args: unknown[]) => (calls.push(`${area}.${method}`), value.apply(repo, args)) : value;
            },
          }),
      });
      return work(spied);
    }) as never);
  return recorded;
}
