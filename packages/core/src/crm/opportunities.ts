import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { CampaignRepositories, IdempotencyInput } from '../campaigns/index.js';
import { IdempotentRequests } from '../campaigns/index.js';
import { handleCommand, type StoredDecider } from '../shared/apply-command.js';
import type { Clock } from '../shared/clock.js';
import type { DomainEvent, EventActor } from '../shared/domain-event.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Cents } from '../shared/money.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { clientsById, resolveClient, type ClientInput, type ClientRef } from './client.js';
import type { CrmRepositories, OpportunityFilter } from './crm-repositories.js';
import { ensureFunnel } from './funnel-stages.js';
import { firstOpenStage, type FunnelStage } from './funnel-stage.js';
import {
  effectiveValue,
  lineTotal,
  newOpportunity,
  opportunityDecider,
  type Opportunity,
  type OpportunityCommand,
  type OpportunityEvent,
  type OpportunityHistoryEntry,
  type OpportunityProduct,
} from './opportunity.js';

type OpportunityRepos = Repositories<CrmRepositories>;

/** A product line as a request gives it; `unitPrice` defaults to the catalogue price. */
export interface ProductLineInput {
  productId: string;
  quantity: number;
  unitPrice?: Cents;
  discountPercent?: number;
}

/** `POST /v1/crm/opportunities`. */
export interface NewOpportunityInput {
  title: string;
  client: ClientInput;
  stageId?: string;
  value?: Cents;
  products?: ProductLineInput[];
  assigneeId?: string | null;
  ticketId?: string | null;
  description?: string | null;
  expectedCloseDate?: string | null;
  lostReason?: string | null;
}

/** `PATCH /v1/crm/opportunities/:id` (`products` replaces every line). */
export interface OpportunityPatch {
  title?: string;
  value?: Cents | null;
  assigneeId?: string | null;
  products?: ProductLineInput[];
  description?: string | null;
  expectedCloseDate?: string | null;
}

/** An opportunity as the API shows it: with its stage and client. */
export interface OpportunityDetail {
  opportunity: Opportunity;
  stage: FunnelStage | null;
  client: ClientRef | null;
  history?: OpportunityHistoryEntry[];
}

/** How many history entries the detail shows. */
export const HISTORY_LIMIT = 100;

/** Product lines checked against the catalogue: an unknown product is 404. */
async function productLines(repos: OpportunityRepos, companyId: string, lines: readonly ProductLineInput[]): Promise<OpportunityProduct[]> {
  if (lines.length === 0) return [];
  const found = new Map((await repos.products.findManyByIds(companyId, lines.map((l) => l.productId))).map((p) => [p.id, p]));
  return lines.map((line) => {
    const product = found.get(line.productId);
    if (!product) throw new NotFoundError('Product', { product_id: line.productId });
    const unitPrice = line.unitPrice ?? product.price;
    const discountPercent = line.discountPercent ?? 0;
    return { productId: product.id, name: product.name, quantity: line.quantity, unitPrice, discountPercent, total: lineTotal(line.quantity, unitPrice, discountPercent) };
  });
}

function eventData(o: Opportunity): Record<string, unknown> {
  return { opportunityId: o.id, title: o.title, value: effectiveValue(o) / 100, stageId: o.stageId, clientId: o.clientId, assigneeId: o.assigneeId };
}

/**
 * Where an opportunity's state lives for `handleCommand`: its row (locked), its history (one entry
 * per event, with the actor) and the events `opportunity.created` / `.won` / `.lost`.
 */
export function storedOpportunity(
  companyId: string,
  id: string,
  actor: EventActor,
  ids: IdGenerator,
): StoredDecider<OpportunityRepos, Opportunity | null, OpportunityCommand, OpportunityEvent> {
  return {
    decider: opportunityDecider,
    load: (repos) => repos.opportunities.findByIdForUpdate(companyId, id),
    async save(repos, state, events) {
      if (!state) return;
      if (events[0]?.type === 'created') await repos.opportunities.insert(state);
      else await repos.opportunities.update(state);
      await repos.opportunities.appendHistory(companyId, events.map((event) => historyEntry(ids.newId(), id, actor, event)));
    },
    outbox(state, events) {
      if (!state) return [];
      const facts: DomainEvent[] = [];
      for (const event of events) {
        const base = { id: ids.newId(), companyId, setorId: null, occurredAt: event.at, actor };
        if (event.type === 'created') {
          facts.push({ ...base, event: 'opportunity.created', data: { ...eventData(state), status: state.status, ticketId: state.ticketId } });
        } else if (event.type === 'won') {
          facts.push({ ...base, event: 'opportunity.won', data: { ...eventData(state), previousStageId: event.previousStageId, closedAt: event.at.toISOString() } });
        } else if (event.type === 'lost') {
          facts.push({
            ...base,
            event: 'opportunity.lost',
            data: { ...eventData(state), previousStageId: event.previousStageId, closedAt: event.at.toISOString(), lostReason: event.lostReason },
          });
        }
      }
      return facts;
    },
  };
}

function historyEntry(id: string, opportunityId: string, actor: EventActor, event: OpportunityEvent): OpportunityHistoryEntry {
  const base = { id, opportunityId, at: event.at, actor };
  switch (event.type) {
    case 'created':
      return { ...base, kind: 'created', changes: { stage_id: { from: null, to: event.opportunity.stageId }, title: { from: null, to: event.opportunity.title } } };
    case 'edited':
      return { ...base, kind: 'updated', changes: event.changes };
    case 'won':
    case 'lost':
    case 'stage_changed': {
      const status = event.type === 'stage_changed' ? 'open' : event.type;
      const changes: OpportunityHistoryEntry['changes'] = { stage_id: { from: event.previousStageId, to: event.stageId } };
      if (event.previousStatus !== status) changes.status = { from: event.previousStatus, to: status };
      if (event.type === 'lost' && event.lostReason) changes.lost_reason = { from: null, to: event.lostReason };
      return { ...base, kind: event.type, changes };
    }
    case 'deleted':
      return { ...base, kind: 'deleted', changes: {} };
  }
}

/** The stage an opportunity goes into, kept from deletion until the transaction ends (see `findByIdForUse`). */
async function stageOf(repos: OpportunityRepos, companyId: string, stageId: string): Promise<FunnelStage> {
  const stage = await repos.funnelStages.findByIdForUse(companyId, stageId);
  if (!stage) throw new NotFoundError('Stage', { stage_id: stageId });
  return stage;
}

/**
 * What creating an opportunity needs of the tickets area's repository (its `TicketRepository`, structurally: the tickets
 * area imports this one, so naming its types here would close an import cycle).
 */
interface TicketLinkRepositories {
  tickets: {
    findById(companyId: string, id: string): Promise<{ id: string } | null>;
    link(companyId: string, ticketId: string, link: { type: 'crm_opportunity'; targetId: string; linkedAt: Date }): Promise<boolean>;
  };
}

type CreateRepos = CrmRepositories & ContactRepositories & CompanyRepositories & CampaignRepositories & TicketLinkRepositories;

/**
 * `POST /v1/crm/opportunities` (with `Idempotency-Key`): 201 and `opportunity.created` (then `.won`/`.lost` in a final stage).
 * A `ticketId` must be a ticket of the company (else 404); the opportunity is linked to it in the same transaction
 * (the ticket's `links.crm_opportunities`).
 */
export class CreateOpportunity {
  constructor(
    private readonly uow: UnitOfWork<CreateRepos>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The new opportunity's id, and whether it is a replay of an earlier request with the same key. */
  async execute(companyId: string, input: NewOpportunityInput, actor: EventActor, idempotency?: IdempotencyInput): Promise<{ id: string; replay: boolean }> {
    const outcome = await new IdempotentRequests<CreateRepos>(this.uow, this.clock).runWithOptionalKey(companyId, idempotency, async (repos) => ({
      status: 201,
      body: { id: await this.create(repos, companyId, input, actor) },
    }));
    return { id: (outcome.body as { id: string }).id, replay: outcome.replay };
  }

  private async create(repos: Repositories<CreateRepos>, companyId: string, input: NewOpportunityInput, actor: EventActor): Promise<string> {
    const now = this.clock.now();
    const title = input.title.trim();
    if (!title) throw new ValidationError('title must not be empty', { field: 'title' });
    const stages = await ensureFunnel(repos, companyId, this.ids, now);
    const chosen = input.stageId ? stages.find((s) => s.id === input.stageId) : firstOpenStage(stages);
    if (!chosen) throw new NotFoundError('Stage', { stage_id: input.stageId ?? null });
    const stage = await stageOf(repos, companyId, chosen.id);
    const client = await resolveClient(repos, companyId, input.client, this.ids, now);
    const products = await productLines(repos, companyId, input.products ?? []);
    const ticket = input.ticketId ? await repos.tickets.findById(companyId, input.ticketId) : null;
    if (input.ticketId && !ticket) throw new NotFoundError('Ticket', { ticket_id: input.ticketId });
    const id = this.ids.newId();
    const opportunity = newOpportunity({ ...input, ticketId: ticket?.id ?? null, id, companyId, title, stageId: stage.id, clientId: client.id, products }, now);
    await handleCommand(repos, storedOpportunity(companyId, id, actor, this.ids), { type: 'create', at: now, opportunity, stage });
    if (ticket) await repos.tickets.link(companyId, ticket.id, { type: 'crm_opportunity', targetId: id, linkedAt: now });
    return id;
  }
}

/** Reads: list, count, detail with history. */
export class ReadOpportunities {
  constructor(private readonly repos: Repositories<CrmRepositories & ContactRepositories>) {}

  async list(companyId: string, filter: OpportunityFilter, page: PageRequest): Promise<Page<OpportunityDetail>> {
    const [found, stages] = await Promise.all([this.repos.opportunities.list(companyId, filter, page), this.repos.funnelStages.listByCompany(companyId)]);
    const clients = await clientsById(this.repos, companyId, found.items.map((o) => o.clientId));
    const byId = new Map(stages.map((s) => [s.id, s]));
    return { ...found, items: found.items.map((o) => ({ opportunity: o, stage: byId.get(o.stageId) ?? null, client: clients.get(o.clientId) ?? null })) };
  }

  count(companyId: string, filter: OpportunityFilter): Promise<{ count: number; valueTotal: Cents }> {
    return this.repos.opportunities.count(companyId, filter);
  }

  async detail(companyId: string, id: string): Promise<OpportunityDetail> {
    const opportunity = await this.repos.opportunities.findById(companyId, id);
    if (!opportunity) throw new NotFoundError('Opportunity');
    const [stage, clients, history] = await Promise.all([
      this.repos.funnelStages.findById(companyId, opportunity.stageId),
      clientsById(this.repos, companyId, [opportunity.clientId]),
      this.repos.opportunities.history(companyId, id, HISTORY_LIMIT),
    ]);
    return { opportunity, stage, client: clients.get(opportunity.clientId) ?? null, history };
  }
}

/** `PATCH /v1/crm/opportunities/:id`: every changed field lands in the history. */
export class UpdateOpportunity {
  constructor(
    private readonly uow: UnitOfWork<CrmRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}
  async execute(companyId: string, id: string, patch: OpportunityPatch, actor: EventActor): Promise<void> {
    await this.uow.transaction(async (repos) => {
      const { products, title, ...rest } = patch;
      const changes = { ...rest, ...(title !== undefined ? { title: title.trim() } : {}), ...(products ? { products: await productLines(repos, companyId, products) } : {}) };
      if (changes.title === '') throw new ValidationError('title must not be empty', { field: 'title' });
      const result = await handleCommand(repos, storedOpportunity(companyId, id, actor, this.ids), { type: 'edit', at: this.clock.now(), changes });
      if (!result?.state) throw new NotFoundError('Opportunity');
    });
  }
}

/** The answer of a move (business.md §3). */
export interface MoveResult {
  result: 'won' | 'lost' | 'stage_changed';
  previousStageId: string;
  closed: boolean;
}

/** `POST /v1/crm/opportunities/:id/move-stage`, under the opportunity's row lock. */
export class MoveOpportunityStage {
  constructor(
    private readonly uow: UnitOfWork<CrmRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}
  async execute(companyId: string, id: string, input: { stageId: string; lostReason?: string | null }, actor: EventActor): Promise<MoveResult> {
    return this.uow.transaction(async (repos) => {
      const stage = await stageOf(repos, companyId, input.stageId);
      const result = await handleCommand(repos, storedOpportunity(companyId, id, actor, this.ids), {
        type: 'move',
        at: this.clock.now(),
        stage,
        lostReason: input.lostReason ?? null,
      });
      const event = result?.events[0];
      if (!result?.state || !event || event.type === 'created' || event.type === 'edited' || event.type === 'deleted') throw new NotFoundError('Opportunity');
      return { result: event.type, previousStageId: event.previousStageId, closed: result.state.status !== 'open' };
    });
  }
}

/** `DELETE /v1/crm/opportunities/:id`: soft; a deleted one reads as missing. */
export class DeleteOpportunity {
  constructor(
    private readonly uow: UnitOfWork<CrmRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}
  async execute(companyId: string, id: string, actor: EventActor): Promise<void> {
    const result = await this.uow.transaction((repos) => handleCommand(repos, storedOpportunity(companyId, id, actor, this.ids), { type: 'delete', at: this.clock.now() }));
    if (!result?.state) throw new NotFoundError('Opportunity');
  }
}
