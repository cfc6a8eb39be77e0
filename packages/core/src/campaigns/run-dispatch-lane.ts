import { sendInParts, type ChannelGateway } from '../channel/index.js';
import type { ChannelInstance } from '../channel/index.js';
import type { SendFailureCode } from '../channel/index.js';
import type { Company } from '../companies/index.js';
import { planOutboundContent } from '../messages/index.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Random } from '../shared/random.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { Setor } from '../setores/index.js';
import { transition } from '../shared/decider.js';
import type { Campaign } from './campaign.js';
import { recipientContent } from './campaign-content.js';
import { campaignMessageDecider, clientMessageIdOf, type CampaignMessage } from './campaign-message.js';
import type { MessageChange } from './campaign-repository.js';
import { redistribute } from './distribution.js';
import { wakeLanes } from './lane-wakeups.js';
import { minimumGapMs, pacingGapMs } from './pacing.js';
import { isWithinSafeHours, nextSafeInstant } from './safe-hours.js';
import { applyOutcome, failCampaign, recordChanges, type SendOutcome } from './settle-outcomes.js';
import { LaneRecordGroups, recordLaneTurns, type LaneTurnRecord } from './lane-record-groups.js';
import type { Sleeper } from './sleeper.js';
import { noDispatchObserver, type DispatchObserver } from './dispatch-observer.js';
import type { TimedSends } from './timed-sends.js';
import { setorCapacityToday, type WarmingStatus } from './warming.js';
import { failureGroupOf } from '../channel/index.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { UsageRepositories } from '../usage/index.js';

/** Marks a setor's instance disconnected (with its event) when a send reports a sender failure. */
export interface SenderFailureHandler {
  within(repos: Repositories<CampaignRepositories & ChannelRepositories & CompanyRepositories & SetorRepositories & UsageRepositories>, input: { setorId: string; code: SendFailureCode; error?: string | null }): Promise<unknown>;
}

export interface DispatchSettings {
  pacingScale: number;
  /** How long a lane lease lasts without renewal; a dead worker's lane is taken over after it. */
  leaseMs: number;
  /** Longest time one run keeps a lane before yielding it (the job is re-enqueued). */
  sliceMs: number;
  /** Pacing gaps up to this long are waited in process; longer ones end the run with a reschedule. */
  maxInProcessWaitMs: number;
  /** Most messages claimed at once (when pacing allows several per second). */
  maxBatch: number;
  /** Claims are sized so that one batch spans about this long. */
  batchSpanMs: number;
  /**
   * A paced lane whose gaps are longer than a claim's span reads up to this many of its messages ahead, claims
   * each on its own at its turn (when the gap before it begins, or after a gap longer than a claim's span: pause,
   * cancel and moves act on the next message not yet claimed, as with batches claimed at once), and records their
   * outcomes in one transaction: one transaction per this many sends instead of two per send. Also bounded so that
   * the sends between two records span at most a third of the lease, and by the longest gap waited in process. The
   * campaign's counters show the sends when they are recorded.
   */
  recordEvery: number;
  autoRetryBaseMs: number;
  /** Sends of one number in flight at once when there is no pacing at all (PACING_SCALE=0). */
  unpacedConcurrency: number;
  /**
   * How long a run trusts what it read of its setor, instance, company and warming (clock time): a lane that
   * sends once a second would otherwise read them before every send. Its own sends are subtracted from
   * the warming capacity in between; a lost sender shows at once in the send's answer.
   */
  contextRefreshMs: number;
  /** How often a run looks for due timed sends (scheduled messages, reminders) between its own sends. */
  timedCheckMs: number;
  /**
   * Most lane turns of one process recorded in one transaction (`LaneRecordGroups`): turns that finish while
   * another group is being written wait for it and are written together. 1: every turn in its own transaction.
   */
  recordGroupMax: number;
}

export const DEFAULT_DISPATCH_SETTINGS: DispatchSettings = {
  pacingScale: 1,
  leaseMs: 30_000,
  sliceMs: 60_000,
  maxInProcessWaitMs: 5_000,
  maxBatch: 200,
  batchSpanMs: 1_000,
  recordEvery: 5,
  autoRetryBaseMs: 60_000,
  unpacedConcurrency: 8,
  contextRefreshMs: 10_000,
  timedCheckMs: 5_000,
  recordGroupMax: 64,
};

/** How long the lane of an inactive company waits before it looks at the company again. */
export const INACTIVE_COMPANY_RECHECK_MS = 60_000;

export type LaneOutcome = 'busy' | 'idle' | 'yielded' | 'sender_unavailable';

export interface LaneRunResult {
  outcome: LaneOutcome;
  sent: number;
  failed: number;
  /** When the lane should run again (null: nothing to do until new work wakes it). */
  rescheduleAt: Date | null;
}

interface LaneContext {
  setor: Setor;
  instance: ChannelInstance;
  company: Company;
  warming: WarmingStatus;
  day: string;
  remaining: number;
}

/**
 * One run of a setor's dispatch lane: the only sender of that number while it holds the lane's
 * lease. Exactly-once: a message is claimed (pendente → enviando, in a committed transaction),
 * sent with `clientMessageId` = its id (so a provider that deduplicates drops a re-send), and
 * recorded with a compare-and-set on `enviando`. A run that dies leaves `enviando` messages;
 * the next holder of the lane re-sends them with the same client ids before claiming more.
 */
export class RunDispatchLane {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories & ChannelRepositories & CompanyRepositories & SetorRepositories & UsageRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly random: Random,
    private readonly gateway: ChannelGateway,
    private readonly sleeper: Sleeper,
    private readonly senderFailure: SenderFailureHandler,
    private readonly settings: DispatchSettings,
    /** Scheduled messages and reminders, sent ahead of campaign messages (absent: campaigns only). */
    private readonly timed: TimedSends | null = null,
    /** The operator's metrics (lateness, outcomes); observes nothing by default. */
    private readonly observer: DispatchObserver = noDispatchObserver,
    /**
     * The repositories outside a transaction, for the single-statement steps (the claim of each message read
     * ahead, the read ahead itself, the lease's acquire and release): a transaction around one statement only adds
     * two round trips.
     * Absent: they run in a transaction of their own.
     */
    private readonly direct: Repositories<CampaignRepositories & ChannelRepositories & CompanyRepositories & SetorRepositories & UsageRepositories> | null = null,
  ) {
    this.recorder = new LaneRecordGroups(uow, clock, ids, settings.recordGroupMax);
  }

  /** One per instance: the worker runs every lane of its process on one RunDispatchLane. */
  private readonly recorder: LaneRecordGroups;

  /**
   * One atomic statement, or reads that need no common snapshot: outside any transaction when the direct
   * repositories are given.
   */
  private single<T>(work: (repos: Repositories<CampaignRepositories & ChannelRepositories & CompanyRepositories & SetorRepositories & UsageRepositories>) => Promise<T>): Promise<T> {
    return this.direct ? work(this.direct) : this.uow.transaction(work);
  }

  /** `signal` ends the run after the current send (a worker shutting down); the lease is released. */
  async run(setorId: string, owner: string, signal?: AbortSignal): Promise<LaneRunResult> {
    const started = this.clock.now();
    const lease = () => new Date(this.clock.now().getTime() + this.settings.leaseMs);
    const lane = await this.single((repos) => repos.dispatchLanes.acquire(setorId, owner, started, lease()));
    if (!lane) {
      const held = await this.single((repos) => repos.dispatchLanes.find(setorId));
      return { outcome: 'busy', sent: 0, failed: 0, rescheduleAt: held?.leaseUntil ?? null };
    }
    let nextSendAt = lane.nextSendAt;
    const result: LaneRunResult = { outcome: 'idle', sent: 0, failed: 0, rescheduleAt: null };
    // Campaigns do not change while they run (pause and cancel act at the claim): read once per run.
    const campaigns = new Map<string, Campaign>();
    let timedBefore = false;
    let timedCheckedAt = Number.NEGATIVE_INFINITY;
    let cached: { ctx: LaneContext; readAt: number } | null = null;
    // Only a run that died leaves `enviando` messages behind, and no other run claims while this one holds
    // the lease: they are looked for once, at the start of the run.
    let inFlightChecked = false;
    try {
      for (;;) {
        const now = this.clock.now();
        if (signal?.aborted) return { ...result, outcome: 'yielded', rescheduleAt: now };
        if (now.getTime() - started.getTime() >= this.settings.sliceMs) {
          // Handed over at once: the next run (here or in another worker) waits out the gap itself, so
          // the queue's polling delay falls inside the gap instead of after it.
          return { ...result, outcome: 'yielded', rescheduleAt: nextSendAt && nextSendAt.getTime() - now.getTime() > this.settings.maxInProcessWaitMs ? nextSendAt : now };
        }
        if (!cached || now.getTime() - cached.readAt >= this.settings.contextRefreshMs) {
          const read = await this.context(setorId, now);
          if (!read) return { ...result, outcome: 'idle' };
          cached = { ctx: read, readAt: now.getTime() };
        }
        const ctx: LaneContext = cached.ctx;
        // After a timed send another is likely: skip the look and let the claim answer (the gap is owed either way).
        const lookForTimed = this.timed !== null && (timedBefore || now.getTime() - timedCheckedAt >= this.settings.timedCheckMs);
        if (lookForTimed && !timedBefore) timedCheckedAt = now.getTime();
        if (this.timed && lookForTimed && (timedBefore || (await this.timed.hasWork(setorId, now)))) {
          timedBefore = false;
          // Timed sends go first and keep the number's pacing; their own rules decide safe hours and a lost sender.
          if (nextSendAt && nextSendAt.getTime() > now.getTime()) {
            const wait = nextSendAt.getTime() - now.getTime();
            if (wait > this.settings.maxInProcessWaitMs) return { ...result, outcome: 'yielded', rescheduleAt: nextSendAt };
            await this.sleeper.sleep(wait);
          }
          const step = await this.timed.sendNext({ setor: ctx.setor, instance: ctx.instance, company: ctx.company, owner });
          if (step) {
            timedBefore = true;
            // A timed send may change what the setor may still send today: read it again.
            cached = null;
            if (step.attempted) nextSendAt = new Date(this.clock.now().getTime() + minimumGapMs('normal', this.settings.pacingScale, ctx.warming.minIntervalMs));
            if (step.sent) result.sent += 1;
            if (step.failed) result.failed += 1;
            const renewed = await this.single((repos) => repos.dispatchLanes.renew(setorId, owner, lease(), nextSendAt));
            if (!renewed) return { ...result, outcome: 'busy' };
            continue;
          }
        }
        if (ctx.instance.status !== 'connected') {
          await this.uow.transaction((repos) => this.senderUnavailable(repos, setorId, 'SENDER_DISCONNECTED', 'The box has no connected channel instance', now));
          return { ...result, outcome: 'sender_unavailable' };
        }
        if (ctx.company.modality === 'inativo') {
          // A company the operator made inactive (read-only) sends nothing, as its single sends are refused: its
          // messages wait, and the lane looks again (its context read anew) until the company is active again.
          return { ...result, outcome: 'yielded', rescheduleAt: new Date(now.getTime() + INACTIVE_COMPANY_RECHECK_MS) };
        }
        if (!isWithinSafeHours(now, ctx.company.safeHours, ctx.company.timezone)) {
          // Campaigns only send inside the company's safe hours; the lane sleeps until the window opens.
          return { ...result, outcome: 'yielded', rescheduleAt: nextSafeInstant(now, ctx.company.safeHours, ctx.company.timezone) };
        }
        if (nextSendAt && nextSendAt.getTime() > now.getTime()) {
          const wait = nextSendAt.getTime() - now.getTime();
          if (wait > this.settings.maxInProcessWaitMs) return { ...result, outcome: 'yielded', rescheduleAt: nextSendAt };
          // A wait within a claim's span is waited below, after the read and the claim: their round trips fall
          // inside the gap instead of after it.
          if (wait > this.settings.batchSpanMs) await this.sleeper.sleep(wait);
        }
        // Waited out before a run ends for lack of work too, as a send would have (the gap is owed either way).
        const waitOut = async () => {
          const left = nextSendAt ? nextSendAt.getTime() - this.clock.now().getTime() : 0;
          if (left > 0) await this.sleeper.sleep(left);
        };

        let batch = inFlightChecked ? [] : await this.single((repos) => repos.campaigns.inFlight(setorId));
        inFlightChecked = true;
        // Messages of `batch` not claimed yet (read ahead); a dead run's leftovers and claimed batches are claimed.
        const unclaimed = new Set<string>();
        let chunk = Number.POSITIVE_INFINITY;
        if (batch.length === 0) {
          if (ctx.remaining <= 0) {
            // Counted down from our own sends: confirm with a fresh read before skipping anything.
            if (cached.readAt !== now.getTime()) {
              cached = null;
              continue;
            }
            const skipped = await this.uow.transaction((repos) => this.skipForWarming(repos, setorId, this.clock.now()));
            if (skipped === 0) {
              await waitOut();
              return { ...result, outcome: 'idle', rescheduleAt: await this.nextRetry(setorId) };
            }
            continue;
          }
          chunk = this.batchSize(ctx);
          const ahead = this.readAhead(ctx);
          const limit = Math.max(1, Math.min(this.settings.maxBatch, ctx.remaining, Math.max(chunk, ahead)));
          if (chunk >= limit) {
            batch = await this.single((repos) => repos.campaigns.claimMessages(setorId, owner, limit, this.clock.now()));
          } else {
            batch = await this.single((repos) => repos.campaigns.pendingAhead(setorId, limit, this.clock.now()));
            for (const m of batch) unclaimed.add(m.id);
          }
          if (batch.length === 0) {
            await waitOut();
            return { ...result, outcome: 'idle', rescheduleAt: await this.nextRetry(setorId) };
          }
        }
        await this.loadCampaigns(batch, campaigns);
        const readAhead = unclaimed.size > 0;

        const changes: MessageChange[] = [];
        let senderFailed: { code: SendFailureCode; error: string } | null = null;
        let index = 0;
        // Without pacing (PACING_SCALE=0) nothing spaces a number's sends, so a few are in flight
        // at once; with pacing they go one by one, each after its gap.
        const width = this.settings.pacingScale === 0 ? Math.max(1, this.settings.unpacedConcurrency) : 1;
        while (index < batch.length && !senderFailed) {
          if (signal?.aborted) break;
          const before = this.clock.now();
          if (index > 0 && readAhead) {
            // Between two sends read ahead: what would end a run or a turn ends the batch here (recorded first).
            if (nextSendAt && nextSendAt.getTime() - before.getTime() > this.settings.maxInProcessWaitMs) break;
            if (before.getTime() - started.getTime() >= this.settings.sliceMs) break;
            if (!isWithinSafeHours(before, ctx.company.safeHours, ctx.company.timezone)) break;
            if (this.timed && before.getTime() - timedCheckedAt >= this.settings.timedCheckMs) {
              timedCheckedAt = before.getTime();
              if (await this.timed.hasWork(setorId, before)) {
                timedBefore = true;
                break;
              }
            }
          }
          // A message read ahead is claimed at its turn: before a wait within a claim's span (so that the claim's
          // round trip does not delay the send; a batch claimed at once spans as long), after a longer one. A
          // message paused, cancelled or moved by then is not claimed.
          const claimNext = async (): Promise<boolean> => {
            if (!unclaimed.has(batch[index]!.id)) return true;
            const ids = batch.slice(index, index + Math.max(1, chunk)).filter((m) => unclaimed.has(m.id)).map((m) => m.id);
            const claimed = new Map((await this.single((repos) => repos.campaigns.claimListed(setorId, ids, owner, this.clock.now()))).map((m) => [m.id, m]));
            for (const id of ids) unclaimed.delete(id);
            // Nothing claimed: the campaign stopped or the messages went elsewhere; the next turn reads again.
            if (claimed.size === 0) {
              batch = batch.slice(0, index);
              return false;
            }
            batch = [...batch.slice(0, index), ...batch.slice(index).flatMap((m) => (ids.includes(m.id) ? (claimed.has(m.id) ? [claimed.get(m.id)!] : []) : [m]))];
            return true;
          };
          const wait = nextSendAt ? nextSendAt.getTime() - this.clock.now().getTime() : 0;
          if (wait <= this.settings.batchSpanMs && !(await claimNext())) break;
          if (nextSendAt && nextSendAt.getTime() > this.clock.now().getTime()) await this.sleeper.sleep(nextSendAt.getTime() - this.clock.now().getTime());
          if (!(await claimNext())) break;
          const group = batch.slice(index, index + width);
          const planned = nextSendAt ? Math.max(nextSendAt.getTime(), started.getTime()) : null;
          const handedAt = planned === null ? 0 : this.clock.now().getTime();
          const outcomes = await Promise.all(group.map((message) => this.send(campaigns.get(message.campaignId)!, message, ctx, owner)));
          const after = this.clock.now();
          group.forEach((message, k) => {
            const outcome = outcomes[k]!;
            const campaign = campaigns.get(message.campaignId)!;
            nextSendAt = new Date(after.getTime() + pacingGapMs(campaign.antiBanLevel, this.random, this.settings.pacingScale, ctx.warming.minIntervalMs));
            changes.push({
              message: applyOutcome(message, setorId, outcome, after, this.settings),
              expectedStatus: 'enviando',
              ...(message.claimedBy ? { expectedClaimedBy: message.claimedBy } : {}),
            });
            if (outcome.ok) result.sent += 1;
            else result.failed += 1;
            this.observer.campaignSend({ outcome: outcome.ok ? 'sent' : outcome.code, lateMs: planned === null ? null : Math.max(0, handedAt - planned) });
            if (!outcome.ok && failureGroupOf(outcome.code) === 'sender' && !senderFailed) senderFailed = { code: outcome.code, error: outcome.error };
          });
          index += group.length;
        }
        // Read ahead but never claimed: nothing to undo, they are still pending.
        const unsent = batch.slice(index).filter((m) => !unclaimed.has(m.id));
        const turn: LaneTurnRecord = { setorId, owner, leaseUntil: lease(), nextSendAt, unsent, changes, company: ctx.company, campaigns };
        if (senderFailed) {
          const failure: { code: SendFailureCode; error: string } = senderFailed;
          await this.uow.transaction(async (repos) => {
            const now2 = this.clock.now();
            await recordLaneTurns(repos, this.ids, now2, [turn]);
            // Then every pending message of the setor moves on to the rest of the pool.
            await this.senderFailure.within(repos, { setorId, code: failure.code, error: failure.error });
            await this.senderUnavailable(repos, setorId, failure.code, failure.error, now2);
          });
          return { ...result, outcome: 'sender_unavailable' };
        }
        // With the other lanes of this process recording at the same moment (LaneRecordGroups).
        const renewed = await this.recorder.record(turn);
        if (!renewed) return { ...result, outcome: 'busy' };
        // Only live sends count against warming (as recordChanges counts them).
        const claimedSends = changes.filter((c) => c.message.status === 'enviado' && campaigns.get(c.message.campaignId)?.mode === 'live').length;
        if (claimedSends > 0) cached = { ctx: { ...ctx, remaining: Math.max(0, ctx.remaining - claimedSends) }, readAt: cached.readAt };
      }
    } finally {
      // Tried twice: a run that ends on a lost connection (the database restarted, every connection cut) may meet
      // another dead pooled connection here, and an unreleased lane waits out its lease (30 s) before running again.
      const release = () => this.single((repos) => repos.dispatchLanes.release(setorId, owner, nextSendAt));
      await release()
        .catch(release)
        .catch(() => undefined);
    }
  }

  private batchSize(ctx: LaneContext): number {
    const gap = minimumGapMs('normal', this.settings.pacingScale, ctx.warming.minIntervalMs);
    if (gap <= 0) return this.settings.maxBatch;
    return Math.floor(this.settings.batchSpanMs / gap) || 1;
  }

  /** How many messages a paced lane reads ahead and records together (see `recordEvery`). */
  private readAhead(ctx: LaneContext): number {
    const gap = minimumGapMs('normal', this.settings.pacingScale, ctx.warming.minIntervalMs);
    if (gap <= 0) return this.settings.maxBatch;
    // Gaps longer than an in-process wait end the turn after one send anyway.
    if (gap > this.settings.maxInProcessWaitMs) return 1;
    // The lease is renewed when the batch is recorded: its sends span well inside it.
    return Math.max(1, Math.min(this.settings.recordEvery, Math.floor(this.settings.leaseMs / 3 / gap) + 1));
  }

  private async context(setorId: string, now: Date): Promise<LaneContext | null> {
    return this.single(async (repos) => {
      const setor = await repos.setores.findById(setorId);
      const instance = await repos.channelInstances.findBySetor(setorId);
      const company = setor && (await repos.companies.findById(setor.companyId));
      if (!setor || !company) return null;
      const { day, warming, remaining } = await setorCapacityToday(repos, setor, company.timezone, now);
      const disconnected: ChannelInstance = instance ?? ({ status: 'disconnected' } as ChannelInstance);
      return { setor, instance: disconnected, company, warming, day, remaining };
    });
  }

  private async loadCampaigns(batch: readonly CampaignMessage[], cache: Map<string, Campaign>): Promise<void> {
    const missing = [...new Set(batch.map((m) => m.campaignId))].filter((id) => !cache.has(id));
    if (missing.length === 0) return;
    await this.uow.transaction(async (repos) => {
      for (const id of missing) {
        const campaign = await repos.campaigns.findById(id);
        if (campaign) cache.set(id, campaign);
      }
    });
  }

  private async send(campaign: Campaign, message: CampaignMessage, ctx: LaneContext, owner: string): Promise<SendOutcome> {
    const now = this.clock.now();
    let parts;
    try {
      const content = recipientContent(campaign, message, now, ctx.company.timezone);
      parts = planOutboundContent(content, this.gateway.capabilities(ctx.setor, campaign.mode), { timeZone: ctx.company.timezone });
    } catch (error) {
      return { ok: false, code: 'UNKNOWN', error: error instanceof Error ? error.message : String(error) };
    }
    const target = {
      setor: ctx.setor,
      instance: ctx.instance,
      mode: campaign.mode,
      to: message.phone,
      // Claimed by a run that died: its send may have reached the provider, which is asked first (docs/channel.md).
      earlierAttemptSince: message.claimedBy !== owner && message.claimedAt ? message.claimedAt : undefined,
    };
    return sendInParts(this.gateway, target, parts, message, clientMessageIdOf);
  }

  /**
   * The setor cannot send: its pending messages move round-robin to the numbers of each
   * campaign's pool that are still connected; a running campaign with none left fails.
   */
  async senderUnavailable(repos: Repositories<CampaignRepositories & ChannelRepositories & CompanyRepositories & SetorRepositories & UsageRepositories>, setorId: string, code: SendFailureCode, error: string, now: Date): Promise<void> {
    for (const found of await repos.campaigns.unfinishedUsingSetor(setorId)) {
      const campaign = await repos.campaigns.findByIdForUpdate(found.id);
      if (!campaign) continue;
      const pending = await repos.campaigns.messagesInStatus(campaign.id, ['pendente'], setorId);
      if (pending.length === 0) continue;
      const connected: string[] = [];
      for (const other of campaign.setorIds) {
        if (other === setorId) continue;
        if ((await repos.channelInstances.findBySetor(other))?.status === 'connected') connected.push(other);
      }
      const plan = redistribute(pending.map((m) => m.id), connected);
      if (plan) {
        await repos.campaigns.reassign(campaign.id, [...plan].flatMap(([to, ids]) => ids.map((id) => ({ id, setorId: to }))), now);
        await wakeLanes(repos.jobs, connected);
      } else if (campaign.status === 'processando') {
        await failCampaign(repos, campaign, `No number of the pool can send: ${error}`, code, this.ids, now);
      }
    }
  }

  private async skipForWarming(repos: Repositories<CampaignRepositories & ChannelRepositories & CompanyRepositories & SetorRepositories & UsageRepositories>, setorId: string, now: Date): Promise<number> {
    let skipped = 0;
    for (const campaign of await repos.campaigns.unfinishedUsingSetor(setorId)) {
      if (campaign.status !== 'processando') continue;
      const pending = await repos.campaigns.messagesInStatus(campaign.id, ['pendente'], setorId);
      const changes: MessageChange[] = pending.map((m) => ({
        message: transition(campaignMessageDecider, m, { type: 'skip', at: now, reason: 'warming_daily_limit', code: 'WARMING_DAILY_LIMIT', error: 'warming_daily_limit' }).state,
        expectedStatus: 'pendente',
      }));
      skipped += (await recordChanges(repos, changes, this.ids, now)).written.length;
    }
    return skipped;
  }

  private async nextRetry(setorId: string): Promise<Date | null> {
    return this.single((repos) => repos.campaigns.earliestRetry(setorId));
  }
}
