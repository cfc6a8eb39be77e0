import { describe, it } from '@jest/globals';
import { given } from '../shared/testing/decider-spec.js';
import { NotFoundError } from '../shared/errors.js';
import { DEFAULT_FUNNEL, type FunnelStage } from './funnel-stage.js';
import { newOpportunity, opportunityDecider, type Opportunity } from './opportunity.js';

const at = new Date('2026-03-01T12:00:00.000Z');
const later = new Date('2026-03-02T12:00:00.000Z');
const stage = (i: number): FunnelStage => ({ ...DEFAULT_FUNNEL[i]!, id: `s${i}`, companyId: 'c', position: i + 1, createdAt: at, updatedAt: at });
const [novo, qualificado, , , ganho, perdido] = [0, 1, 2, 3, 4, 5].map(stage);

const opportunity = (extra: Partial<Opportunity> = {}): Opportunity => ({
  ...newOpportunity({ id: 'o1', companyId: 'c', title: 'Site', stageId: 's0', clientId: 'k1' }, at),
  ...extra,
});

describe('opportunityDecider', () => {
  it('creates an open opportunity in an open stage', () => {
    given(opportunityDecider, null)
      .when({ type: 'create', at, opportunity: opportunity(), stage: qualificado! })
      .then([{ type: 'created', at, opportunity: opportunity({ stageId: 's1' }) }]);
  });

  it('creates in a final stage: created, then won or lost', () => {
    given(opportunityDecider, null)
      .when({ type: 'create', at, opportunity: opportunity(), stage: ganho! })
      .then([
        { type: 'created', at, opportunity: opportunity({ stageId: 's4' }) },
        { type: 'won', at, stageId: 's4', previousStageId: 's4', previousStatus: 'open' },
      ]);
    given(opportunityDecider, null)
      .when({ type: 'create', at, opportunity: opportunity({ lostReason: 'preço' }), stage: perdido! })
      .thenState({ status: 'lost', stageId: 's5', closedAt: at, lostReason: 'preço' });
  });

  it('wins in the won stage, loses in a lost one with the reason, and moves between open stages', () => {
    given(opportunityDecider, opportunity())
      .when({ type: 'move', at: later, stage: ganho! })
      .then([{ type: 'won', at: later, stageId: 's4', previousStageId: 's0', previousStatus: 'open' }]);
    given(opportunityDecider, opportunity()).when({ type: 'move', at: later, stage: ganho! }).thenState({ status: 'won', closedAt: later });
    given(opportunityDecider, opportunity())
      .when({ type: 'move', at: later, stage: perdido!, lostReason: 'caro' })
      .thenState({ status: 'lost', stageId: 's5', closedAt: later, lostReason: 'caro' });
    given(opportunityDecider, opportunity())
      .when({ type: 'move', at: later, stage: qualificado! })
      .then([{ type: 'stage_changed', at: later, stageId: 's1', previousStageId: 's0', previousStatus: 'open', reopened: false }]);
  });

  it('reopens a closed opportunity moved to an open stage', () => {
    given(opportunityDecider, opportunity({ status: 'lost', stageId: 's5', closedAt: at, lostReason: 'caro' }))
      .when({ type: 'move', at: later, stage: novo! })
      .thenState({ status: 'open', stageId: 's0', closedAt: null, lostReason: null });
  });

  it('refuses a move to the stage it is in (409 INVALID_TRANSITION)', () => {
    given(opportunityDecider, opportunity()).when({ type: 'move', at: later, stage: novo! }).thenThrows((e) => (e as { code?: string }).code === 'INVALID_TRANSITION');
  });

  it('records only the fields an edit changes; an edit changing nothing is a no-op', () => {
    given(opportunityDecider, opportunity())
      .when({ type: 'edit', at: later, changes: { title: 'Site novo', description: null, value: 5000 } })
      .then([{ type: 'edited', at: later, changes: { title: { from: 'Site', to: 'Site novo' }, value: { from: null, to: 5000 } }, next: { title: 'Site novo', value: 5000 } }]);
    given(opportunityDecider, opportunity()).when({ type: 'edit', at: later, changes: { title: 'Site' } }).then([]);
    const line = { productId: 'p1', name: 'Site', quantity: 2, unitPrice: 1000, discountPercent: 10, total: 1800 };
    given(opportunityDecider, opportunity()).when({ type: 'edit', at: later, changes: { products: [line] } }).thenState({ productsTotal: 1800, products: [line] });
  });

  it('deletes softly; a deleted or missing opportunity is not found', () => {
    given(opportunityDecider, opportunity()).when({ type: 'delete', at: later }).thenState({ deletedAt: later });
    given(opportunityDecider, opportunity({ deletedAt: at })).when({ type: 'delete', at: later }).thenThrows(NotFoundError);
    given(opportunityDecider, opportunity({ deletedAt: at })).when({ type: 'move', at: later, stage: ganho! }).thenThrows(NotFoundError);
    given(opportunityDecider, null).when({ type: 'edit', at: later, changes: { title: 'x' } }).thenThrows(NotFoundError);
  });
});
