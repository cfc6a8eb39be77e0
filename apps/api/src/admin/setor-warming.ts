import type { Setor } from '@carteiro/core';

/** The warming state of a setor, as `GET /admin/v1/setores/:id` shows it. */
export interface SetorWarmingView {
  stage: number;
  daily_limit: number;
  sent_today: number;
}

/** Reads a setor's warming state (bound by the campaigns module, which owns warming). */
export const SetorWarmingReader = Symbol.for('carteiro.api.SetorWarmingReader');
export type SetorWarmingReader = (setor: Setor) => Promise<SetorWarmingView>;
