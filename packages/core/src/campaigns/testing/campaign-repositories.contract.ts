import { describe, expect, it } from '@jest/globals';
import type { Campaign } from '../index.js';
import type { CampaignMessage } from '../index.js';
import { createCompany } from '../../companies/index.js';
import { campaignFixture, messageFixture } from './campaign-fixtures.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { CampaignRepositories } from '../index.js';
import type { CompanyRepositories } from '../../companies/index.js';

/** The areas this suite reads and writes. */
type Areas = CampaignRepositories & CompanyRepositories;

let counter = 0;
const uuid = () => {
  counter += 1;
  return `30000000-0000-4000-8000-${(Date.now() % 1_000_000).toString().padStart(6, '0')}${counter.toString().padStart(6, '0')}`;
};
const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);

/**
 * What every CampaignRepository, DispatchLaneRepository and IdempotencyRepository must do:
 * bulk insert, claiming (with SKIP LOCKED in PostgreSQL), compare-and-set writes, counters,
 * skips, redistribution, lanes and Idempotency-Key records.
 */
export function describeCampaignRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`campaign repositories contract: ${name}`, () => {
    const fresh = async (status: Campaign['status'] = 'processando', extra: Partial<Campaign> = {}, count = 4) => {
      const sut = await setup();
      const company = createCompany(uuid(), t0, { name: 'Acme' });
      await sut.repos.companies.insert(company);
      const setores = [uuid(), uuid()];
      const campaign = campaignFixture({
        id: uuid(),
        companyId: company.id,
        status,
        setorIds: setores,
        totals: { total: count, enviados: 0, falhas: 0, pulados: 0 },
        createdAt: t0,
        updatedAt: t0,
        ...extra,
      });
      await sut.repos.campaigns.insert(campaign);
      const messages: CampaignMessage[] = Array.from({ length: count }, (_, i) =>
        messageFixture({
          id: uuid(),
          campaignId: campaign.id,
          companyId: company.id,
          seq: i,
          phone: `+5511990000${String(i).padStart(3, '0')}`,
          name: i === 1 ? 'Ana "Quote" \\ Souza' : null,
          variables: i === 2 ? { pedido: '42' } : null,
          assignedSetorId: setores[i % 2]!,
          setorId: setores[i % 2]!,
          createdAt: t0,
          updatedAt: t0,
        }),
      );
      await sut.repos.campaigns.insertMessages(messages);
      return { ...sut, company, campaign, messages, setores };
    };

    it('stores a campaign and its messages and reads them back', async () => {
      const { repos, campaign, messages, company } = await fresh('pendente');
      expect(await repos.campaigns.findById(campaign.id)).toEqual(campaign);
      expect(await repos.campaigns.findByIdInCompany(company.id, campaign.id)).toEqual(campaign);
      expect(await repos.campaigns.findByIdInCompany(uuid(), campaign.id)).toBeNull();
      expect(await repos.campaigns.messagesInStatus(campaign.id, ['pendente'])).toEqual(messages);
      const changed = { ...campaign, status: 'processando' as const, startedAt: at(5), updatedAt: at(5) };
      await repos.campaigns.update(changed);
      await repos.campaigns.addTotals(campaign.id, { enviados: 2, falhas: 1, pulados: 0 });
      expect(await repos.campaigns.findById(campaign.id)).toEqual({ ...changed, totals: { total: 4, enviados: 2, falhas: 1, pulados: 0 } });
    });

    it('links contacts to messages created from phones, keeping a given name', async () => {
      const { repos, campaign, messages } = await fresh('pendente');
      const unlinked = messages;
      expect((await repos.campaigns.messagesWithoutContact(campaign.id)).map((m) => m.id)).toEqual(unlinked.map((m) => m.id));
      const contactIds = unlinked.map(() => uuid());
      await repos.campaigns.attachContacts(campaign.id, unlinked.map((m, i) => ({ id: m.id, contactId: contactIds[i]!, name: 'Contato' })));
      expect(await repos.campaigns.messagesWithoutContact(campaign.id)).toEqual([]);
      const linked = await repos.campaigns.findMessagesByIds(campaign.id, unlinked.map((m) => m.id));
      expect(linked.map((m) => [m.contactId, m.name])).toEqual(unlinked.map((m, i) => [contactIds[i], m.name ?? 'Contato']));
    });

    it('claims pending messages of running campaigns on one box, in order, once', async () => {
      const { repos, campaign, setores } = await fresh();
      const first = await repos.campaigns.claimMessages(setores[0]!, 'lane-a', 1, at(1));
      expect(first.map((m) => [m.seq, m.status, m.claimedBy])).toEqual([[0, 'enviando', 'lane-a']]);
      const rest = await repos.campaigns.claimMessages(setores[0]!, 'lane-a', 10, at(1));
      expect(rest.map((m) => m.seq)).toEqual([2]);
      expect(await repos.campaigns.claimMessages(setores[0]!, 'lane-a', 10, at(1))).toEqual([]);
      expect((await repos.campaigns.inFlight(setores[0]!)).map((m) => m.seq)).toEqual([0, 2]);
      await repos.campaigns.update({ ...campaign, status: 'pausado' });
      expect(await repos.campaigns.claimMessages(setores[1]!, 'lane-b', 10, at(1))).toEqual([]);
    });

    it('reads ahead what a claim would take without claiming it, then claims listed messages only while they are still claimable', async () => {
      const { repos, campaign, setores } = await fresh();
      const ahead = await repos.campaigns.pendingAhead(setores[0]!, 10, at(1));
      expect(ahead.map((m) => [m.seq, m.status])).toEqual([[0, 'pendente'], [2, 'pendente']]);
      expect((await repos.campaigns.pendingAhead(setores[0]!, 1, at(1))).map((m) => m.seq)).toEqual([0]);
      const [first, second] = ahead;
      const claimed = await repos.campaigns.claimListed(setores[0]!, [second!.id, first!.id], 'lane-a', at(2));
      expect(claimed.map((m) => [m.seq, m.status, m.claimedBy, m.claimedAt])).toEqual([[2, 'enviando', 'lane-a', at(2)], [0, 'enviando', 'lane-a', at(2)]]);
      // Claimed already, or on another box: not claimed again.
      expect(await repos.campaigns.claimListed(setores[0]!, [first!.id], 'lane-b', at(3))).toEqual([]);
      const other = (await repos.campaigns.pendingAhead(setores[1]!, 10, at(1)))[0]!;
      expect(await repos.campaigns.claimListed(setores[0]!, [other.id], 'lane-a', at(3))).toEqual([]);
      // A paused campaign's messages are read ahead no more, and not claimed.
      await repos.campaigns.update({ ...campaign, status: 'pausado' });
      expect(await repos.campaigns.pendingAhead(setores[1]!, 10, at(3))).toEqual([]);
      expect(await repos.campaigns.claimListed(setores[1]!, [other.id], 'lane-b', at(3))).toEqual([]);
      expect(await repos.campaigns.claimListed(setores[1]!, [], 'lane-b', at(3))).toEqual([]);
    });

    it('claims listed by several lanes at once: each gets its own, a message named by two lanes goes to one', async () => {
      const { repos, setores } = await fresh('processando', {}, 12);
      const a = await repos.campaigns.pendingAhead(setores[0]!, 3, at(1));
      const b = await repos.campaigns.pendingAhead(setores[1]!, 3, at(1));
      const [first, second, third, fourth] = await Promise.all([
        repos.campaigns.claimListed(setores[0]!, [a[0]!.id], 'lane-a', at(2)),
        repos.campaigns.claimListed(setores[1]!, b.map((m) => m.id).reverse(), 'lane-b', at(2)),
        repos.campaigns.claimListed(setores[0]!, [a[1]!.id, a[2]!.id], 'lane-a', at(3)),
        repos.campaigns.claimListed(setores[0]!, [a[2]!.id], 'lane-c', at(3)),
      ]);
      expect(first!.map((m) => [m.id, m.claimedBy, m.claimedAt])).toEqual([[a[0]!.id, 'lane-a', at(2)]]);
      expect(second!.map((m) => [m.id, m.claimedBy])).toEqual(b.map((m) => [m.id, 'lane-b']).reverse());
      // a[2] went to exactly one of the two lanes that named it.
      expect(third!.some((m) => m.id === a[2]!.id) !== fourth!.some((m) => m.id === a[2]!.id)).toBe(true);
      expect(third!.map((m) => m.id)).toContain(a[1]!.id);
      expect([...third!, ...fourth!].every((m) => m.status === 'enviando')).toBe(true);
    });

    it('never hands one message to two concurrent claims', async () => {
      const { uow, setores, campaign, repos } = await fresh('processando', {}, 40);
      const claims = await Promise.all(
        Array.from({ length: 4 }, (_, i) => uow.transaction((tx) => tx.campaigns.claimMessages(setores[0]!, `lane-${i}`, 7, at(1)))),
      );
      const ids = claims.flat().map((m) => m.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(20);
      expect((await repos.campaigns.messagesInStatus(campaign.id, ['enviando'])).length).toBe(20);
    });

    it('writes a change only when the row is still as the writer saw it', async () => {
      const { repos, setores } = await fresh();
      const [m] = await repos.campaigns.claimMessages(setores[0]!, 'lane-a', 1, at(1));
      const sent = { ...m!, status: 'enviado' as const, actualSetorId: setores[0]!, sentAt: at(2), providerMessageId: 'p-1', attempts: 1, claimedBy: null, updatedAt: at(2) };
      expect(await repos.campaigns.updateMessages([{ message: sent, expectedStatus: 'enviando', expectedClaimedBy: 'lane-b' }])).toEqual([]);
      expect(await repos.campaigns.updateMessages([{ message: sent, expectedStatus: 'enviando', expectedClaimedBy: 'lane-a' }])).toEqual([m!.id]);
      expect(await repos.campaigns.updateMessages([{ message: sent, expectedStatus: 'enviando' }])).toEqual([]);
      expect((await repos.campaigns.findMessagesByIds(m!.campaignId, [m!.id, 'not-a-uuid']))[0]).toEqual(sent);
    });

    it('skips pending messages, moves them between boxes and waits for retries', async () => {
      const { repos, campaign, setores } = await fresh();
      const moved = await repos.campaigns.messagesInStatus(campaign.id, ['pendente'], setores[0]!);
      expect(await repos.campaigns.reassign(campaign.id, moved.map((m) => ({ id: m.id, setorId: setores[1]! })), at(3))).toBe(2);
      const onSecond = await repos.campaigns.messagesInStatus(campaign.id, ['pendente'], setores[1]!);
      expect(onSecond.map((m) => [m.seq, m.wasReassigned])).toEqual([[0, true], [1, false], [2, true], [3, false]]);
      const [waiting] = onSecond;
      await repos.campaigns.updateMessages([{ message: { ...waiting!, notBefore: at(60) }, expectedStatus: 'pendente' }]);
      expect(await repos.campaigns.earliestRetry(setores[1]!)).toEqual(at(60));
      expect((await repos.campaigns.claimMessages(setores[1]!, 'l', 10, at(10))).map((m) => m.seq)).toEqual([1, 2, 3]);
      expect((await repos.campaigns.claimMessages(setores[1]!, 'l', 10, at(61))).map((m) => m.seq)).toEqual([0]);
      const other = await fresh();
      expect(await other.repos.campaigns.skipPending(other.campaign.id, { reason: 'cancelled_by_user', code: null, error: 'cancelled_by_user' }, at(4))).toBe(4);
      const skipped = await other.repos.campaigns.messagesInStatus(other.campaign.id, ['pulado']);
      expect(skipped[0]).toMatchObject({ skipReason: 'cancelled_by_user', error: 'cancelled_by_user', errorCode: null });
    });

    it('lists messages by public status and searches recipients', async () => {
      const { repos, campaign, setores } = await fresh();
      await repos.campaigns.claimMessages(setores[1]!, 'l', 1, at(1));
      const pending = await repos.campaigns.listMessages(campaign.id, { status: 'pendente' }, { page: 1, limit: 3 });
      expect(pending).toMatchObject({ total: 4, totalPages: 2, page: 1, limit: 3 });
      expect(pending.items.map((m) => m.seq)).toEqual([0, 1, 2]);
      expect((await repos.campaigns.listMessages(campaign.id, { q: 'quote' }, { page: 1, limit: 10 })).items.map((m) => m.seq)).toEqual([1]);
      expect((await repos.campaigns.listMessages(campaign.id, { q: '990000003' }, { page: 1, limit: 10 })).items.map((m) => m.seq)).toEqual([3]);
      expect((await repos.campaigns.listMessages(campaign.id, { status: 'enviado' }, { page: 1, limit: 10 })).total).toBe(0);
    });

    it('answers the company reads the checks need', async () => {
      const { repos, company, campaign } = await fresh('pendente', { scheduledFor: at(3600) });
      const running = campaignFixture({ id: uuid(), companyId: company.id, status: 'processando', setorIds: campaign.setorIds, totals: { total: 5, enviados: 1, falhas: 1, pulados: 1 }, createdAt: at(1), updatedAt: at(1) });
      const done = { ...running, id: uuid(), status: 'concluido' as const, totals: { total: 2, enviados: 2, falhas: 0, pulados: 0 } };
      const testMode = { ...running, id: uuid(), mode: 'test' as const, status: 'pausado' as const };
      for (const c of [running, done, testMode]) await repos.campaigns.insert(c);
      expect((await repos.campaigns.activeOfCompany(company.id)).map((c) => c.id)).toEqual([campaign.id, running.id]);
      expect(await repos.campaigns.unsettledLiveMessages(company.id)).toBe(4 + 2);
      expect((await repos.campaigns.dueToStart(at(10), 10)).map((c) => c.id)).not.toContain(campaign.id);
      expect((await repos.campaigns.dueToStart(at(3600), 10)).map((c) => c.id)).toContain(campaign.id);
      expect((await repos.campaigns.unfinishedUsingSetor(campaign.setorIds[0]!)).map((c) => c.id)).toEqual([campaign.id, running.id, testMode.id]);
      const page = await repos.campaigns.listByCompany(company.id, {}, { page: 1, limit: 2 });
      expect(page).toMatchObject({ total: 4, totalPages: 2 });
      expect((await repos.campaigns.listByCompany(company.id, { status: 'concluido' }, { page: 1, limit: 10 })).items.map((c) => c.id)).toEqual([done.id]);
      await repos.campaigns.addTotals(running.id, { enviados: 2, falhas: 0, pulados: 0 });
      expect((await repos.campaigns.settledButRunning(100)).map((c) => c.id)).toContain(running.id);
    });

    it('leases a lane to one owner at a time and keeps its pacing', async () => {
      const { repos, setores } = await fresh();
      const lane = setores[0]!;
      expect(await repos.dispatchLanes.acquire(lane, 'a', at(0), at(30))).toEqual({ setorId: lane, owner: 'a', leaseUntil: at(30), nextSendAt: null });
      expect(await repos.dispatchLanes.acquire(lane, 'b', at(10), at(40))).toBeNull();
      expect(await repos.dispatchLanes.renew(lane, 'a', at(60), at(45))).toBe(true);
      expect(await repos.dispatchLanes.renew(lane, 'b', at(60), at(45))).toBe(false);
      await repos.dispatchLanes.acquire(setores[1]!, 'x', at(0), at(30));
      expect(
        await repos.dispatchLanes.renewAll([
          { setorId: setores[1]!, owner: 'x', leaseUntil: at(61), nextSendAt: null },
          { setorId: lane, owner: 'b', leaseUntil: at(61), nextSendAt: at(50) },
          { setorId: lane, owner: 'a', leaseUntil: at(60), nextSendAt: at(45) },
        ]),
      ).toEqual([true, false, true]);
      expect(await repos.dispatchLanes.renewAll([])).toEqual([]);
      expect(await repos.dispatchLanes.find(setores[1]!)).toEqual({ setorId: setores[1]!, owner: 'x', leaseUntil: at(61), nextSendAt: null });
      await repos.dispatchLanes.release(setores[1]!, 'x', null);
      expect((await repos.campaigns.setoresWithWork(at(20))).includes(lane)).toBe(false);
      expect((await repos.campaigns.setoresWithWork(at(20))).includes(setores[1]!)).toBe(true);
      expect(await repos.dispatchLanes.acquire(lane, 'b', at(61), at(90))).toMatchObject({ owner: 'b', nextSendAt: at(45) });
      await repos.dispatchLanes.release(lane, 'b', at(95));
      expect(await repos.dispatchLanes.find(lane)).toEqual({ setorId: lane, owner: null, leaseUntil: null, nextSendAt: at(95) });
      expect(await repos.dispatchLanes.acquire(lane, 'c', at(62), at(92))).toMatchObject({ owner: 'c' });
    });

    it('names the owners of the leases still running (a census of who holds how many lanes)', async () => {
      const { repos, setores } = await fresh();
      // Other cases' lanes may share the store: only this case's owners are looked at.
      const tag = `census-${setores[0]}`;
      const ours = async (now: Date) => (await repos.dispatchLanes.liveOwners(now)).filter((o) => o.startsWith(tag)).sort();
      await repos.dispatchLanes.acquire(setores[0]!, `${tag}:w1:a`, at(0), at(30));
      await repos.dispatchLanes.acquire(setores[1]!, `${tag}:w2:b`, at(0), at(10));
      expect(await ours(at(5))).toEqual([`${tag}:w1:a`, `${tag}:w2:b`]);
      // An expired lease and a released lane hold nothing.
      expect(await ours(at(20))).toEqual([`${tag}:w1:a`]);
      await repos.dispatchLanes.release(setores[0]!, `${tag}:w1:a`, null);
      expect(await ours(at(20))).toEqual([]);
    });

    it('keeps Idempotency-Key records per company for 24 hours', async () => {
      const { repos, company } = await fresh();
      const record = { companyId: company.id, key: 'key-1', requestHash: 'h1', state: 'in_flight' as const, responseStatus: null, responseBody: null, createdAt: at(0), lockedUntil: at(60) };
      expect(await repos.idempotency.begin(record, at(-86_400))).toBeNull();
      expect(await repos.idempotency.begin({ ...record, requestHash: 'h2', createdAt: at(1) }, at(-86_399))).toMatchObject({ state: 'in_flight', requestHash: 'h1' });
      await repos.idempotency.complete(company.id, 'key-1', 202, { id: 'x', n: 1 });
      expect(await repos.idempotency.begin({ ...record, createdAt: at(2) }, at(-86_398))).toMatchObject({ state: 'completed', responseStatus: 202, responseBody: { id: 'x', n: 1 } });
      expect(await repos.idempotency.begin({ ...record, requestHash: 'h3', createdAt: at(86_401) }, at(1))).toBeNull();
      await repos.idempotency.release(company.id, 'key-1');
      expect(await repos.idempotency.begin({ ...record, requestHash: 'h4', createdAt: at(86_402) }, at(2))).toBeNull();
      const other = createCompany(uuid(), t0, { name: 'Other' });
      await repos.companies.insert(other);
      expect(await repos.idempotency.begin({ ...record, companyId: other.id, createdAt: at(86_403) }, at(3))).toBeNull();
      expect(await repos.idempotency.purge(at(86_402))).toBe(0);
    });
  });
}
