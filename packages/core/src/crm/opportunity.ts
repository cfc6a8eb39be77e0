import type { EventActor } from '../shared/domain-event.js';
import { DomainError, NotFoundError } from '../shared/errors.js';
import type { Decider } from '../shared/decider.js';
import type { Cents } from '../shared/money.js';
import { isFinalStage, type FunnelStage } from './funnel-stage.js';

export type OpportunityStatus = 'open' | 'won' | 'lost';
export const OpportunityStatuses: readonly OpportunityStatus[] = ['open', 'won', 'lost'];

/** One line of an opportunity's products (replaced whole on every change). */
export interface OpportunityProduct {
  productId: string;
  /** The catalogue name when the line was set. */
  name: string;
  quantity: number;
  unitPrice: Cents;
  /** 0-100, up to two decimals. */
  discountPercent: number;
  /** quantity × unit price less the discount, rounded to the centavo. */
  total: Cents;
}

/** A deal in the company's funnel (business.md §3). Deleting it is soft (`deletedAt`). */
export interface Opportunity {
  id: string;
  companyId: string;
  title: string;
  /** The value the client set; null: the products total stands for it. */
  value: Cents | null;
  productsTotal: Cents;
  status: OpportunityStatus;
  stageId: string;
  clientId: string;
  assigneeId: string | null;
  /** A ticket of the tickets area (not built yet: stored as given). */
  ticketId: string | null;
  description: string | null;
  /** `YYYY-MM-DD`. */
  expectedCloseDate: string | null;
  lostReason: string | null;
  closedAt: Date | null;
  products: OpportunityProduct[];
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an opportunity is created with: its stage and client, and the optional fields it may start with. */
export type NewOpportunity = Pick<Opportunity, 'id' | 'companyId' | 'title' | 'stageId' | 'clientId'> &
  Partial<Pick<Opportunity, 'value' | 'assigneeId' | 'ticketId' | 'description' | 'expectedCloseDate' | 'lostReason' | 'products'>>;

/** A new open opportunity created `at` (its products' total summed), not closed or deleted. */
export function newOpportunity(input: NewOpportunity, at: Date): Opportunity {
  const products = input.products ?? [];
  return {
    id: input.id,
    companyId: input.companyId,
    title: input.title,
    value: input.value ?? null,
    productsTotal: productsTotal(products),
    status: 'open',
    stageId: input.stageId,
    clientId: input.clientId,
    assigneeId: input.assigneeId ?? null,
    ticketId: input.ticketId ?? null,
    description: input.description ?? null,
    expectedCloseDate: input.expectedCloseDate ?? null,
    lostReason: input.lostReason ?? null,
    closedAt: null,
    products,
    deletedAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The value an opportunity counts for: the one set, else its products' total. */
export function effectiveValue(o: Pick<Opportunity, 'value' | 'productsTotal'>): Cents {
  return o.value ?? o.productsTotal;
}

export function lineTotal(quantity: number, unitPrice: Cents, discountPercent: number): Cents {
  return Math.round((quantity * unitPrice * (100 - discountPercent)) / 100);
}

export function productsTotal(products: readonly OpportunityProduct[]): Cents {
  return products.reduce((sum, p) => sum + p.total, 0);
}

/** A field change in the history: `{ from, to }` as the API shows them. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** One entry of an opportunity's history (the last 100 are shown with its detail). */
export interface OpportunityHistoryEntry {
  id: string;
  opportunityId: string;
  at: Date;
  actor: EventActor;
  kind: 'created' | 'updated' | 'stage_changed' | 'won' | 'lost' | 'deleted';
  changes: FieldChanges;
}

/** Fields a PATCH may change (`stage_id` moves through `move`). */
export interface OpportunityChanges {
  title?: string;
  value?: Cents | null;
  assigneeId?: string | null;
  products?: OpportunityProduct[];
  description?: string | null;
  expectedCloseDate?: string | null;
}

export type OpportunityCommand =
  | { type: 'create'; at: Date; opportunity: Opportunity; stage: FunnelStage }
  | { type: 'edit'; at: Date; changes: OpportunityChanges }
  | { type: 'move'; at: Date; stage: FunnelStage; lostReason?: string | null }
  | { type: 'delete'; at: Date };

export type OpportunityEvent =
  | { type: 'created'; at: Date; opportunity: Opportunity }
  | { type: 'edited'; at: Date; changes: FieldChanges; next: OpportunityChanges }
  | { type: 'won'; at: Date; stageId: string; previousStageId: string; previousStatus: OpportunityStatus }
  | { type: 'lost'; at: Date; stageId: string; previousStageId: string; previousStatus: OpportunityStatus; lostReason: string | null }
  /** Moved to an open stage; `reopened` when it was won or lost. */
  | { type: 'stage_changed'; at: Date; stageId: string; previousStageId: string; previousStatus: OpportunityStatus; reopened: boolean }
  | { type: 'deleted'; at: Date };

/** The API's names of the fields a PATCH may change, for the history. */
const FIELD_NAMES: Record<keyof OpportunityChanges, string> = {
  title: 'title',
  value: 'value',
  assigneeId: 'assignee_id',
  products: 'products',
  description: 'description',
  expectedCloseDate: 'expected_close_date',
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function live(state: Opportunity | null): Opportunity {
  if (!state || state.deletedAt) throw new NotFoundError('Opportunity');
  return state;
}

function closeEvent(at: Date, stage: FunnelStage, previousStageId: string, previousStatus: OpportunityStatus, lostReason: string | null): OpportunityEvent {
  return stage.isWon
    ? { type: 'won', at, stageId: stage.id, previousStageId, previousStatus }
    : { type: 'lost', at, stageId: stage.id, previousStageId, previousStatus, lostReason };
}

/**
 * An opportunity's life: created (in any stage: a final one closes it at once), edited, moved
 * across the funnel — a won stage wins it, a lost one loses it, an open one reopens a closed one
 * silently — and softly deleted. A move to the stage it is in is refused (409 INVALID_TRANSITION).
 */
export const opportunityDecider: Decider<Opportunity | null, OpportunityCommand, OpportunityEvent> = {
  initialState: () => null,
  decide(command, state) {
    switch (command.type) {
      case 'create': {
        if (state) throw new DomainError('CONFLICT', 'Opportunity already exists');
        const created: OpportunityEvent = { type: 'created', at: command.at, opportunity: { ...command.opportunity, stageId: command.stage.id, status: 'open' } };
        if (!isFinalStage(command.stage)) return [created];
        return [created, closeEvent(command.at, command.stage, command.stage.id, 'open', command.stage.isLost ? (command.opportunity.lostReason ?? null) : null)];
      }
      case 'edit': {
        const current = live(state);
        const changes: FieldChanges = {};
        const next: OpportunityChanges = {};
        for (const key of Object.keys(command.changes) as (keyof OpportunityChanges)[]) {
          const to = command.changes[key];
          if (to === undefined || same(current[key], to)) continue;
          changes[FIELD_NAMES[key]] = { from: current[key], to };
          (next as Record<string, unknown>)[key] = to;
        }
        return Object.keys(changes).length === 0 ? [] : [{ type: 'edited', at: command.at, changes, next }];
      }
      case 'move': {
        const current = live(state);
        if (current.stageId === command.stage.id) {
          throw new DomainError('INVALID_TRANSITION', 'The opportunity is already in this stage', { status: current.status, stage_id: current.stageId });
        }
        if (isFinalStage(command.stage)) return [closeEvent(command.at, command.stage, current.stageId, current.status, command.lostReason ?? null)];
        return [{ type: 'stage_changed', at: command.at, stageId: command.stage.id, previousStageId: current.stageId, previousStatus: current.status, reopened: current.status !== 'open' }];
      }
      case 'delete': {
        live(state);
        return [{ type: 'deleted', at: command.at }];
      }
    }
  },
  evolve(state, event) {
    if (event.type === 'created') return { ...event.opportunity, createdAt: event.at, updatedAt: event.at };
    if (!state) return state;
    switch (event.type) {
      case 'edited': {
        const next = { ...state, ...event.next, updatedAt: event.at };
        if (event.next.products) next.productsTotal = productsTotal(event.next.products);
        return next;
      }
      case 'won':
        return { ...state, status: 'won', stageId: event.stageId, closedAt: event.at, lostReason: null, updatedAt: event.at };
      case 'lost':
        return { ...state, status: 'lost', stageId: event.stageId, closedAt: event.at, lostReason: event.lostReason, updatedAt: event.at };
      case 'stage_changed':
        return event.reopened
          ? { ...state, status: 'open', stageId: event.stageId, closedAt: null, lostReason: null, updatedAt: event.at }
          : { ...state, stageId: event.stageId, updatedAt: event.at };
      case 'deleted':
        return { ...state, deletedAt: event.at, updatedAt: event.at };
    }
  },
};
