import type { Clock } from '../shared/clock.js';
import { systemActor } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { autoAssign, type AssignmentRepositories } from './ticket-assignment.js';
import { commitTicket } from './ticket-writes.js';

/**
 * Wakes snoozed tickets whose `snoozedUntil` was reached (conversations.md §1: snoozed → open,
 * at most 60 s late): the job queued with each snooze for its time, and a sweep every minute for any
 * that was missed. A ticket snoozed again, opened or closed meanwhile is left alone (the decider's
 * `wake` changes nothing then). A woken ticket of an auto-assigning team is assigned.
 */
export class WakeSnoozedTickets {
  constructor(
    private readonly uow: UnitOfWork<AssignmentRepositories>,
    private readonly repos: Repositories<AssignmentRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Wakes one ticket if it is due; true when it woke. */
  async wake(companyId: string, ticketId: string): Promise<boolean> {
    return this.uow.transaction(async (repos) => {
      const ticket = await repos.tickets.lockById(companyId, ticketId);
      if (!ticket) return false;
      const at = this.clock.now();
      const woken = await commitTicket(repos, ticket, { type: 'wake', at }, this.ids, systemActor);
      if (woken.changed) await autoAssign(repos, woken.ticket, at, this.ids);
      return woken.changed;
    });
  }

  /** Wakes every due ticket (up to `limit`); answers how many woke. */
  async sweep(limit = 500): Promise<number> {
    const due = await this.repos.tickets.dueSnoozed(this.clock.now(), limit);
    let woken = 0;
    for (const { companyId, id } of due) if (await this.wake(companyId, id)) woken += 1;
    return woken;
  }
}
