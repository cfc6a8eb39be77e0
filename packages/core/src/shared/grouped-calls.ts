/**
 * Calls that each need one round trip (a statement, a transaction), made by many callers at once, answered by one
 * round trip for all of them: a call made while none is in flight goes at once, alone; calls made meanwhile wait
 * for it and go together in the next one (at most `max`). Light load keeps one round trip per call; under load the
 * batches grow with the load, and the round trips (each a write to the socket and a wake-up of a PostgreSQL
 * backend) stay few.
 *
 * `run` answers one result per request, in their order; when it throws, every request of that batch fails with
 * its error. A result may be a promise (a request the batch could not answer, sent on its own): its caller waits
 * for it, the next batch does not.
 */
export class GroupedCalls<Request, Result> {
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
