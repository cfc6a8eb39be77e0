import { isUuid } from '@carteiro/core';

/**
 * Calls that each need one statement, made by many callers at once outside any transaction, answered by one
 * statement for all of them: a call made while no statement is in flight goes at once, alone; calls made
 * meanwhile wait for it and go together in the next one (at most `max`). Light load keeps one round trip per
 * call; under load the batches grow with the load, and the statements (each a write to the socket and a
 * wake-up of a PostgreSQL backend) stay few.
 *
 * `run` answers one result per request, in their order; when it throws, every request of that batch fails with
 * its error. A result may be a promise (a request the batch could not answer, sent on its own): its caller waits
 * for it, the next batch does not.
 */
export class GroupedStatements<Request, Result> {
  private waiting: { request: Request; resolve: (result: Result | PromiseLike<Result>) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = false;

  constructor(
    private readonly run: (requests: readonly Request[]) => Promise<(Result | PromiseLike<Result>)[]>,
    private readonly max = 256,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (!this.inFlight) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.max);
        try {
          const results = await this.run(batch.map((w) => w.request));
          batch.forEach((w, i) => w.resolve(results[i]!));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.inFlight = false;
    }
  }
}

const perDatabase = new WeakMap<object, Map<string, object>>();

/**
 * The grouped statement `name` of a database (its pool): every repository object made on that database, whatever
 * transaction-free caller holds it, shares it. `run` is taken from the first call.
 */
export function groupedOn<Request, Result>(db: object, name: string, run: (requests: readonly Request[]) => Promise<Result[]>): GroupedStatements<Request, Result> {
  let named = perDatabase.get(db);
  if (!named) perDatabase.set(db, (named = new Map()));
  let group = named.get(name) as GroupedStatements<Request, Result> | undefined;
  if (!group) named.set(name, (group = new GroupedStatements(run)));
  return group;
}

/**
 * Rows by id for many callers at once: one `WHERE key = ANY(…)` statement for the ids asked meanwhile, each caller
 * answered its row or null. Ids that are not UUIDs are answered null without being sent (one caller's bad id must
 * not fail the statement of the others).
 */
export function groupedById<Row>(
  db: object,
  name: string,
  select: (ids: string[]) => Promise<Row[]>,
  keyOf: (row: Row) => string,
): (id: string) => Promise<Row | null> {
  const group = groupedOn<string, Row | null>(db, name, async (ids) => {
    const valid = [...new Set(ids.filter(isUuid))];
    const found = new Map((valid.length > 0 ? await select(valid) : []).map((row) => [keyOf(row), row]));
    return ids.map((id) => found.get(id) ?? null);
  });
  return (id) => group.submit(id);
}
