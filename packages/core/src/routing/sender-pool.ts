import type { ChannelInstance } from '../channel/index.js';
import type { Company } from '../companies/index.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import { isUuid } from '../shared/ids.js';
import type { Setor } from '../setores/index.js';
import type { RotationCursorRepository } from './rotation-cursor-repository.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TeamRepositories } from '../teams/index.js';

/** How the caller chose the sending setor(es); every field optional. */
export interface SenderSelection {
  setorId?: string | null;
  setorIds?: readonly string[] | null;
  teamId?: string | null;
  multiNumber?: boolean | null;
}

/**
 * - `auto`: nothing chosen; the company's connected setores (only the oldest when multi-number is off);
 * - `single`: `setor_id`;
 * - `setor_ids`, `team`, `multi_number`: the pool modes.
 */
export type PoolMode = 'auto' | 'single' | 'setor_ids' | 'team' | 'multi_number';

/** A setor that can send now: its connected channel instance. */
export interface SenderSetor {
  setor: Setor;
  instance: ChannelInstance;
}

/** The eligible (connected) setores of a selection, in a stable order. */
export interface SenderPool {
  mode: PoolMode;
  boxes: SenderSetor[];
  /** Names the shared rotation cursor of this pool. */
  rotationKey: string;
}

/**
 * The exclusivity rules (400 VALIDATION_ERROR): `multi_number` excludes `setor_id`,
 * `setor_ids` and `team_id`; only one pool mode (`multi_number`, `setor_ids`, `team_id`) per
 * call; `setor_id` is single mode and excludes the pool modes too. Answers the mode.
 */
export function selectionMode(selection: SenderSelection): PoolMode {
  const has = {
    setor_id: selection.setorId != null,
    setor_ids: selection.setorIds != null,
    team_id: selection.teamId != null,
    multi_number: selection.multiNumber === true,
  };
  const chosen = Object.entries(has).filter(([, v]) => v).map(([k]) => k);
  if (chosen.length > 1) {
    throw new ValidationError(`${chosen.join(', ')} are mutually exclusive: choose one box selection`, { fields: chosen });
  }
  if (has.setor_ids) {
    const ids = selection.setorIds!;
    if (ids.length === 0) throw new ValidationError('setor_ids needs at least one box', { field: 'setor_ids' });
    const bad = ids.filter((id) => !isUuid(id));
    if (bad.length > 0) throw new ValidationError('setor_ids must be box UUIDs', { field: 'setor_ids', invalid: bad });
    return 'setor_ids';
  }
  if (has.team_id) return 'team';
  if (has.multi_number) return 'multi_number';
  if (has.setor_id) return 'single';
  return 'auto';
}

const noConnected = (details: Record<string, unknown>) =>
  new DomainError('NOT_FOUND', 'No connected channel instance for the selected box(es)', details);

/**
 * Resolves a setor selection to its pool of eligible (connected) setores, or throws:
 * 400 for broken exclusivity, 403 MULTI_NUMBER_DISABLED for a pool mode without the
 * feature, 404 for a missing or other-company setor or team, and 404 when no selected setor
 * has a connected instance. Single sends take one setor of the pool with {@link pickSender};
 * campaigns use the whole pool.
 */
export async function resolveSenderPool(
  repos: SetorRepositories & TeamRepositories & ChannelRepositories,
  company: Company,
  selection: SenderSelection,
): Promise<SenderPool> {
  const mode = selectionMode(selection);
  if ((mode === 'setor_ids' || mode === 'team' || mode === 'multi_number') && !company.multiNumberEnabled) {
    throw new DomainError('MULTI_NUMBER_DISABLED', 'Multi-number sending is not enabled for this company', { mode });
  }
  const instances = new Map((await repos.channelInstances.listByCompany(company.id)).map((i) => [i.setorId, i]));
  const connected = (setores: Setor[]): SenderSetor[] =>
    setores.flatMap((setor) => {
      const instance = instances.get(setor.id);
      return instance && instance.status === 'connected' ? [{ setor, instance }] : [];
    });

  switch (mode) {
    case 'single': {
      const id = selection.setorId!;
      const setor = isUuid(id) ? await repos.setores.findByIdInCompany(company.id, id) : null;
      if (!setor) throw new NotFoundError('Box', { setor_id: id });
      const boxes = connected([setor]);
      if (boxes.length === 0) throw noConnected({ setor_id: id });
      return { mode, boxes, rotationKey: `setor:${setor.id}` };
    }
    case 'setor_ids': {
      const ids = [...new Set(selection.setorIds!)];
      const setores: Setor[] = [];
      for (const id of ids) {
        const setor = await repos.setores.findByIdInCompany(company.id, id);
        if (!setor) throw new NotFoundError('Box', { setor_id: id });
        setores.push(setor);
      }
      const boxes = connected(setores);
      if (boxes.length === 0) throw noConnected({ setor_ids: ids });
      return { mode, boxes, rotationKey: `company:${company.id}:setores:${[...ids].sort().join(',')}` };
    }
    case 'team': {
      const teamId = selection.teamId!;
      const team = isUuid(teamId) ? await repos.teams.findByIdInCompany(company.id, teamId) : null;
      if (!team) throw new NotFoundError('Team', { team_id: teamId });
      const setores: Setor[] = [];
      for (const id of team.setorIds) {
        const setor = await repos.setores.findByIdInCompany(company.id, id);
        if (setor) setores.push(setor);
      }
      const boxes = connected(setores);
      if (boxes.length === 0) throw noConnected({ team_id: teamId });
      return { mode, boxes, rotationKey: `team:${team.id}` };
    }
    case 'multi_number':
    case 'auto': {
      const boxes = connected(await repos.setores.allOfCompany(company.id));
      if (boxes.length === 0) throw noConnected({});
      if (mode === 'auto' && !company.multiNumberEnabled) return { mode, boxes: boxes.slice(0, 1), rotationKey: `company:${company.id}:auto` };
      return { mode, boxes, rotationKey: `company:${company.id}:${mode}` };
    }
  }
}

/**
 * The setor a single send uses: the next one of the pool by its shared rotation cursor (so
 * that every API process continues the same rotation). A one-setor pool needs no cursor.
 */
export async function pickSender(pool: SenderPool, cursors: RotationCursorRepository, now: Date): Promise<SenderSetor> {
  if (pool.boxes.length === 1) return pool.boxes[0]!;
  const position = await cursors.advance(pool.rotationKey, now);
  return pool.boxes[position % pool.boxes.length]!;
}
