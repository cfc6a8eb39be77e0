import type { SendFailureCode } from '../channel/index.js';
import { failureGroupOf } from '../channel/index.js';
import type { Company } from '../companies/index.js';
import type { DomainEvent } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { transition } from '../shared/decider.js';
import { campaignDecider, chargesCredits, isTerminal, unsettledCount, type Campaign } from './campaign.js';
import { campaignCompletedEvent, campaignFailedEvent, messageOutcomeEvent } from './campaign-events.js';
import { campaignMessageDecider, MAX_AUTO_RETRIES, settlementDelta, type CampaignMessage } from './campaign-message.js';
import type { MessageChange } from './campaign-repository.js';
import { zonedDay } from '../shared/zoned-time.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { UsageRepositories } from '../usage/index.js';

/** What the channel answered for one claimed message. */
export type SendOutcome =
  | { ok: true; providerMessageId: string; sentAt: Date }
  | { ok: false; code: SendFailureCode; error: string };

export interface SettleSettings {
  pacingScale: number;
  /** First backoff of an automatic retry (doubles each time), before PACING_SCALE. */
  autoRetryBaseMs: number;
}

/** The message after an outcome: sent, failed, or back to pending for an automatic retry. */
export function applyOutcome(message: CampaignMessage, setorId: string, outcome: SendOutcome, now: Date, settings: SettleSettings): CampaignMessage {
  const attempted = { ...message, attempts: message.attempts + 1 };
  if (outcome.ok) {
    return transition(campaignMessageDecider, attempted, { type: 'markSent', at: now, setorId, providerMessageId: outcome.providerMessageId, sentAt: outcome.sentAt }).state;
  }
  if (failureGroupOf(outcome.code) === 'temporary' && message.autoRetries < MAX_AUTO_RETRIES) {
    const delay = settings.autoRetryBaseMs * 2 ** message.autoRetries * Math.max(0, settings.pacingScale);
    return {
      ...transition(campaignMessageDecider, attempted, { type: 'requeue', at: now, notBefore: new Date(now.getTime() + delay), auto: true }).state,
      error: outcome.error,
      errorCode: outcome.code,
    };
  }
  return transition(campaignMessageDecider, attempted, { type: 'markFailed', at: now, setorId, code: outcome.code, error: outcome.error }).state;
}

/**
 * Records a batch of changed messages in the caller's transaction: each write is guarded by
 * the status it left (so a message is counted once, whoever records it), then the credits of
 * failed and skipped messages, the message events, the campaign counters (with the completion of
 * campaigns that have nothing left to send) and the daily counters of sent ones.
 *
 * The rows every lane of a company shares (the campaign's counters, the company's daily count) are
 * written last, each by one atomic statement, so that their locks are held for the fewest round
 * trips before the commit: the lanes of a company's numbers otherwise queue behind each other.
 * `campaigns` may hand in what the caller already read of the campaigns (mode and plan do not change).
 */
export async function recordChanges(
  repos: Repositories<CampaignRepositories & CompanyRepositories & UsageRepositories>,
  changes: readonly MessageChange[],
  ids: IdGenerator,
  now: Date,
  options: {
    /** The lanes whose live sends count against their setor's and company's daily usage (a message counts on the setor that sent it). */
    countSentOn?: { setorId: string; company: Company } | readonly { setorId: string; company: Company }[];
    campaigns?: ReadonlyMap<string, Campaign>;
    /** Campaigns the caller moved messages back to pending in, outside `changes` (a lane's claimed but unsent messages). */
    requeuedIn?: Iterable<string>;
  } = {},
): Promise<{ written: CampaignMessage[] }> {
  if (changes.length === 0) return { written: [] };
  const writtenIds = new Set(await repos.campaigns.updateMessages(changes));
  const written = changes.filter((c) => writtenIds.has(c.message.id));
  const campaignIds = [...new Set(written.map((c) => c.message.campaignId))].sort();
  const events: DomainEvent[] = [];
  const settled: { campaignId: string; delta: { enviados: number; falhas: number; pulados: number } }[] = [];
  const sentLive = new Map<string, number>();
  for (const campaignId of campaignIds) {
    const campaign = options.campaigns?.get(campaignId) ?? (await repos.campaigns.findById(campaignId));
    if (!campaign) continue;
    const delta = { enviados: 0, falhas: 0, pulados: 0, refund: 0 };
    for (const change of written) {
      if (change.message.campaignId !== campaignId) continue;
      const d = settlementDelta(change.expectedStatus, change.message.status, chargesCredits(campaign));
      delta.enviados += d.enviados;
      delta.falhas += d.falhas;
      delta.pulados += d.pulados;
      delta.refund += d.refund;
      if (change.message.status === 'enviado' || change.message.status === 'falha') events.push(messageOutcomeEvent(change.message, ids, now));
      if (change.message.status === 'enviado' && campaign.mode === 'live') {
        const on = change.message.actualSetorId ?? change.message.setorId;
        sentLive.set(on, (sentLive.get(on) ?? 0) + 1);
      }
    }
    if (delta.refund !== 0) await repos.companies.adjustBalance(campaign.companyId, delta.refund);
    if (delta.enviados || delta.falhas || delta.pulados) settled.push({ campaignId, delta: { enviados: delta.enviados, falhas: delta.falhas, pulados: delta.pulados } });
  }
  await repos.events.record(events);
  const completed: DomainEvent[] = [];
  // Campaigns a message went back to pending in (a retry, a claim not sent): one cancelled or failed meanwhile never
  // claims it again, so it is skipped here, under the campaign's lock (a cancel holds it while it skips).
  const requeuedIn = new Set(options.requeuedIn);
  for (const c of written) if (c.message.status === 'pendente') requeuedIn.add(c.message.campaignId);
  const deltas = new Map(settled.map((s) => [s.campaignId, s.delta]));
  for (const campaignId of [...new Set([...deltas.keys(), ...requeuedIn])].sort()) {
    const delta = deltas.get(campaignId);
    // The counters move and the campaign is read back in one statement (its row locked from here to the commit).
    let campaign = delta ? await repos.campaigns.addTotals(campaignId, delta) : await repos.campaigns.findByIdForUpdate(campaignId);
    if (!campaign) continue;
    let moved = delta !== undefined;
    if (requeuedIn.has(campaignId) && isTerminal(campaign.status)) {
      const skipped = await skipLeftovers(repos, campaign, now);
      if (skipped) [campaign, moved] = [skipped, true];
    }
    if (campaign.status === 'processando' && unsettledCount(campaign.totals) === 0) {
      const done = transition(campaignDecider, campaign, { type: 'complete', at: now }).state;
      await repos.campaigns.update(done);
      completed.push(campaignCompletedEvent(done, ids, now));
    } else if (moved && campaign.status === 'concluido' && campaign.cancelledByUser && unsettledCount(campaign.totals) === 0) {
      // The last message in flight at the cancel has settled (the cancel announced the campaign when none was).
      completed.push(campaignCompletedEvent(campaign, ids, now));
    }
  }
  await repos.events.record(completed);
  const lanes = options.countSentOn === undefined ? [] : 'setorId' in options.countSentOn ? [options.countSentOn] : options.countSentOn;
  // Several lanes (a recording group) in one statement, which writes the shared daily rows in key order.
  const counted = [...new Map(lanes.map((lane) => [lane.setorId, lane])).values()];
  const entries = counted.map(({ setorId, company }) => ({ companyId: company.id, setorId, day: zonedDay(now, company.timezone), count: sentLive.get(setorId) ?? 0 })).filter((e) => e.count > 0);
  if (entries.length === 1) await repos.usage.addSent(entries[0]!.companyId, entries[0]!.setorId, entries[0]!.day, entries[0]!.count);
  else if (entries.length > 1) await repos.usage.addSentAll(entries);
  return { written: written.map((c) => c.message) };
}

/**
 * Skips the pending messages of a cancelled or failed campaign (messages that went back to pending after it finished),
 * gives their units back, and answers the campaign with its counters moved; null when there were none.
 */
async function skipLeftovers(repos: Repositories<CampaignRepositories & CompanyRepositories>, campaign: Campaign, now: Date): Promise<Campaign | null> {
  const reason = campaign.cancelledByUser ? 'cancelled_by_user' : 'no_sender_available';
  const skipped = await repos.campaigns.skipPending(campaign.id, { reason, code: null, error: reason }, now);
  if (skipped === 0) return null;
  if (chargesCredits(campaign)) await repos.companies.adjustBalance(campaign.companyId, skipped);
  return repos.campaigns.addTotals(campaign.id, { enviados: 0, falhas: 0, pulados: skipped });
}

/** Completes a processando campaign with nothing left to send (the sweep's safety net). */
export async function completeIfSettled(repos: Repositories<CampaignRepositories & CompanyRepositories & UsageRepositories>, campaignId: string, ids: IdGenerator, now: Date): Promise<boolean> {
  const campaign = await repos.campaigns.findByIdForUpdate(campaignId);
  if (!campaign || campaign.status !== 'processando' || unsettledCount(campaign.totals) > 0) return false;
  const done = transition(campaignDecider, campaign, { type: 'complete', at: now }).state;
  await repos.campaigns.update(done);
  await repos.events.record([campaignCompletedEvent(done, ids, now)]);
  return true;
}

/** Fails a campaign whose pool can no longer send: its pending messages are skipped and refunded. */
export async function failCampaign(repos: Repositories<CampaignRepositories & CompanyRepositories & UsageRepositories>, campaign: Campaign, error: string, code: SendFailureCode, ids: IdGenerator, now: Date): Promise<number> {
  const skipped = await repos.campaigns.skipPending(campaign.id, { reason: 'no_sender_available', code, error }, now);
  if (skipped > 0) {
    await repos.campaigns.addTotals(campaign.id, { enviados: 0, falhas: 0, pulados: skipped });
    if (chargesCredits(campaign)) await repos.companies.adjustBalance(campaign.companyId, skipped);
  }
  const failed = transition(campaignDecider, campaign, { type: 'fail', at: now, error }).state;
  await repos.campaigns.update(failed);
  await repos.events.record([campaignFailedEvent(failed, ids, now, error)]);
  return skipped;
}
