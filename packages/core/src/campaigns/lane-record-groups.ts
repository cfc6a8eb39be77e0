import type { Company } from '../companies/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { GroupedCalls } from '../shared/grouped-calls.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { UsageRepositories } from '../usage/index.js';
import { transition } from '../shared/decider.js';
import type { Campaign } from './campaign.js';
import { campaignMessageDecider, type CampaignMessage } from './campaign-message.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { MessageChange } from './campaign-repository.js';
import { recordChanges } from './settle-outcomes.js';

type RecordRepositories = CampaignRepositories & CompanyRepositories & UsageRepositories;

/** What one turn of a dispatch lane writes when it records its sends. */
export interface LaneTurnRecord {
  setorId: string;
  /** The lane's owner: the lease is renewed only if it still holds it. */
  owner: string;
  leaseUntil: Date;
  nextSendAt: Date | null;
  /** Claimed but never handed to the channel (the run stopping): back to pending. */
  unsent: readonly CampaignMessage[];
  /** The outcomes of the turn's sends. */
  changes: readonly MessageChange[];
  company: Company;
  /** What the lane read of the campaigns (mode and plan do not change while they run). */
  campaigns: ReadonlyMap<string, Campaign>;
}

/**
 * Records the turns of several lanes in the caller's transaction, as each lane's own transaction would: the
 * leases (one statement, in setor order), the unsent messages back to pending, then `recordChanges` over all their outcomes,
 * whose shared rows (campaign counters, daily usage) are each written once, in key order. Answers, per turn,
 * whether its lane still held its lease.
 */
export async function recordLaneTurns(repos: Repositories<RecordRepositories>, ids: IdGenerator, now: Date, turns: readonly LaneTurnRecord[]): Promise<boolean[]> {
  const held =
    turns.length === 1
      ? [await repos.dispatchLanes.renew(turns[0]!.setorId, turns[0]!.owner, turns[0]!.leaseUntil, turns[0]!.nextSendAt)]
      : await repos.dispatchLanes.renewAll(turns);
  const back = turns.flatMap((turn) =>
    turn.unsent.map((m) => ({
      message: transition(campaignMessageDecider, m, { type: 'requeue', at: now, notBefore: m.notBefore, auto: false }).state,
      expectedStatus: 'enviando' as const,
    })),
  );
  const putBack = await repos.campaigns.updateMessages(back);
  const campaigns = new Map<string, Campaign>();
  for (const turn of turns) for (const [id, campaign] of turn.campaigns) campaigns.set(id, campaign);
  const requeuedIn = new Set(back.filter((c) => putBack.includes(c.message.id)).map((c) => c.message.campaignId));
  await recordChanges(
    repos,
    turns.flatMap((turn) => turn.changes),
    ids,
    now,
    { countSentOn: turns.map((turn) => ({ setorId: turn.setorId, company: turn.company })), campaigns, requeuedIn },
  );
  return held;
}

/**
 * Group commit of the lanes running in one process (`GroupedCalls`): a turn handed in while no group is being
 * written is written at once, alone; turns handed in meanwhile wait and are written together in the next
 * transaction (at most `maxGroup`). Under load this turns one transaction per lane turn into one per group, and the
 * rows the lanes of a company share (its campaign's counters, its daily usage) are locked once per group instead
 * of once per lane: with ten numbers a company, the lanes otherwise queued behind each other on those rows.
 *
 * A group whose transaction fails is written again turn by turn, each in its own transaction, so that one
 * turn's failure (or a deadlock's victim) never fails the others; each turn's error goes to its own lane.
 */
export class LaneRecordGroups {
  private readonly calls: GroupedCalls<LaneTurnRecord, boolean>;

  constructor(
    private readonly uow: UnitOfWork<RecordRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    maxGroup: number,
  ) {
    this.calls = new GroupedCalls((turns) => this.write(turns), Math.max(1, maxGroup));
  }

  /** Records the turn; answers whether its lane still held its lease. */
  record(turn: LaneTurnRecord): Promise<boolean> {
    return this.calls.submit(turn);
  }

  private async write(turns: readonly LaneTurnRecord[]): Promise<(boolean | Promise<boolean>)[]> {
    const inOne = (group: readonly LaneTurnRecord[]) => this.uow.transaction((repos) => recordLaneTurns(repos, this.ids, this.clock.now(), group));
    if (turns.length > 1) {
      try {
        return await inOne(turns);
      } catch {
        // Each on its own below.
      }
    }
    const answers: (boolean | Promise<boolean>)[] = [];
    for (const turn of turns) {
      try {
        const [held] = await inOne([turn]);
        answers.push(held!);
      } catch (error) {
        // Handed to its lane when the batch is answered; marked handled until then (the loop goes on meanwhile).
        const failed = Promise.reject(error);
        failed.catch(() => undefined);
        answers.push(failed);
      }
    }
    return answers;
  }
}
