import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../shared/errors.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { assertFunnelInvariants, defaultFunnel, firstOpenStage, renumber, shapeStage, type FunnelStage } from './funnel-stage.js';

const at = new Date('2026-03-01T12:00:00.000Z');
const funnel = () => defaultFunnel('c', new SequentialIds(), at);
const invariant = (stages: FunnelStage[]) => {
  try {
    assertFunnelInvariants(stages);
    return null;
  } catch (error) {
    return error instanceof DomainError && error.code === 'CONFLICT' ? error.details?.invariant : error;
  }
};

describe('the funnel', () => {
  it('starts with Novo, Qualificado, Proposta, Negociação, Ganho and Perdido, and new opportunities go to the first open stage', () => {
    const stages = funnel();
    expect(stages.map((s) => [s.name, s.position, s.winProbability])).toEqual([
      ['Novo', 1, 10],
      ['Qualificado', 2, 30],
      ['Proposta', 3, 60],
      ['Negociação', 4, 80],
      ['Ganho', 5, 100],
      ['Perdido', 6, 0],
    ]);
    expect(invariant(stages)).toBeNull();
    expect(firstOpenStage([...stages].reverse())?.name).toBe('Novo');
  });

  it('names the invariant a change breaks', () => {
    const [novo, q, p, n, ganho, perdido] = funnel();
    expect(invariant([novo!, ganho!])).toBe('at_least_one_lost_stage');
    expect(invariant([ganho!, perdido!])).toBe('at_least_one_open_stage');
    expect(invariant([novo!, perdido!])).toBe('one_won_stage');
    expect(invariant([novo!, ganho!, { ...q!, isWon: true }, perdido!])).toBe('one_won_stage');
    expect(invariant([novo!, { ...p!, name: 'novo' }, ganho!, perdido!])).toBe('unique_stage_names');
    expect(invariant([novo!, n!, ganho!, perdido!, { ...q!, isLost: true }])).toBeNull();
  });

  it('forces the probabilities of final stages and renumbers around a moved stage', () => {
    const [novo, q, , , , perdido] = funnel();
    expect(shapeStage(novo!, { isWon: true, winProbability: 40 }, at)).toMatchObject({ isWon: true, winProbability: 100 });
    expect(shapeStage(q!, { isLost: true }, at).winProbability).toBe(0);
    expect(() => shapeStage(perdido!, { isWon: true }, at)).toThrow(DomainError);
    const moved = renumber(funnel(), { ...perdido!, position: 1 });
    expect(moved.map((s) => `${s.position}:${s.name}`)).toEqual(['1:Perdido', '2:Novo', '3:Qualificado', '4:Proposta', '5:Negociação', '6:Ganho']);
  });
});
