import type { IdGenerator } from '../shared/id-generator.js';
import { DomainError, ValidationError } from '../shared/errors.js';

/** One column of a company's sales funnel (business.md §3). */
export interface FunnelStage {
  id: string;
  companyId: string;
  name: string;
  /** Order of the funnel, from 1; unique within the company. */
  position: number;
  isWon: boolean;
  isLost: boolean;
  /** 0-100; forced to 100 on the won stage and 0 on lost ones. */
  winProbability: number;
  /** `#rrggbb`, or null. */
  color: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The funnel every company starts with. */
export const DEFAULT_FUNNEL: readonly Pick<FunnelStage, 'name' | 'isWon' | 'isLost' | 'winProbability' | 'color'>[] = [
  { name: 'Novo', isWon: false, isLost: false, winProbability: 10, color: '#94a3b8' },
  { name: 'Qualificado', isWon: false, isLost: false, winProbability: 30, color: '#60a5fa' },
  { name: 'Proposta', isWon: false, isLost: false, winProbability: 60, color: '#a78bfa' },
  { name: 'Negociação', isWon: false, isLost: false, winProbability: 80, color: '#f59e0b' },
  { name: 'Ganho', isWon: true, isLost: false, winProbability: 100, color: '#22c55e' },
  { name: 'Perdido', isWon: false, isLost: true, winProbability: 0, color: '#ef4444' },
];

/** The seeded funnel of a company. */
export function defaultFunnel(companyId: string, ids: IdGenerator, now: Date): FunnelStage[] {
  return DEFAULT_FUNNEL.map((stage, i) => ({ ...stage, id: ids.newId(), companyId, position: i + 1, createdAt: now, updatedAt: now }));
}

/** Whether an opportunity in this stage is closed. */
export function isFinalStage(stage: Pick<FunnelStage, 'isWon' | 'isLost'>): boolean {
  return stage.isWon || stage.isLost;
}

/** The stage new opportunities go to when none is named: the first open one. */
export function firstOpenStage(stages: readonly FunnelStage[]): FunnelStage | null {
  return [...stages].sort((a, b) => a.position - b.position).find((s) => !isFinalStage(s)) ?? null;
}

/** Fields of a stage an operator may set. */
export interface StageInput {
  name?: string;
  position?: number;
  isWon?: boolean;
  isLost?: boolean;
  winProbability?: number;
  color?: string | null;
}

/** A stage after an operator's change: the won stage's probability is 100, a lost one's 0. */
export function shapeStage(stage: FunnelStage, input: StageInput, now: Date): FunnelStage {
  const isWon = input.isWon ?? stage.isWon;
  const isLost = input.isLost ?? stage.isLost;
  if (isWon && isLost) throw new ValidationError('A stage cannot be both won and lost', { field: 'is_won' });
  const name = input.name !== undefined ? input.name.trim() : stage.name;
  if (!name) throw new ValidationError('name must not be empty', { field: 'name' });
  return {
    ...stage,
    name,
    position: input.position ?? stage.position,
    isWon,
    isLost,
    winProbability: isWon ? 100 : isLost ? 0 : (input.winProbability ?? stage.winProbability),
    color: input.color !== undefined ? input.color : stage.color,
    updatedAt: now,
  };
}

/**
 * The funnel's invariants (business.md §3): exactly one won stage, at least one lost and at
 * least one open; names unique. A change breaking one is `409 CONFLICT` naming it (§10).
 */
export function assertFunnelInvariants(stages: readonly FunnelStage[]): void {
  const won = stages.filter((s) => s.isWon).length;
  const lost = stages.filter((s) => s.isLost).length;
  const open = stages.filter((s) => !isFinalStage(s)).length;
  const fail = (invariant: string, message: string) => {
    throw new DomainError('CONFLICT', message, { invariant });
  };
  if (won !== 1) fail('one_won_stage', 'The funnel must have exactly one won stage');
  if (lost < 1) fail('at_least_one_lost_stage', 'The funnel must have at least one lost stage');
  if (open < 1) fail('at_least_one_open_stage', 'The funnel must have at least one open stage');
  const names = new Set(stages.map((s) => s.name.toLowerCase()));
  if (names.size !== stages.length) fail('unique_stage_names', 'Stage names must be unique in the funnel');
}

/** Positions 1..n in the current order, `moved` placed at its requested position. */
export function renumber(stages: readonly FunnelStage[], moved?: FunnelStage): FunnelStage[] {
  const others = [...stages].filter((s) => s.id !== moved?.id).sort((a, b) => a.position - b.position);
  if (moved) {
    const index = Math.max(0, Math.min(others.length, moved.position - 1));
    others.splice(index, 0, moved);
  }
  return others.map((s, i) => (s.position === i + 1 ? s : { ...s, position: i + 1 }));
}
