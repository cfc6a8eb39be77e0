import type { CompanyRepositories } from '../companies/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { CrmRepositories } from './crm-repositories.js';
import { assertFunnelInvariants, defaultFunnel, renumber, shapeStage, type FunnelStage, type StageInput } from './funnel-stage.js';

/**
 * The company's funnel, seeded when it has none. PostgreSQL seeds it when the company is
 * created (a trigger of migration 0008, which also seeded the companies that existed); this
 * covers stores without the trigger (the in-memory fakes) and is idempotent.
 */
export async function ensureFunnel(repos: Repositories<CrmRepositories>, companyId: string, ids: IdGenerator, now: Date): Promise<FunnelStage[]> {
  const stages = await repos.funnelStages.listByCompany(companyId);
  if (stages.length > 0) return stages;
  const seeded = defaultFunnel(companyId, ids, now);
  await repos.funnelStages.saveFunnel(companyId, seeded);
  return seeded;
}

/** `GET /v1/crm/stages` (and the operator's read): by position; an unknown company is 404. */
export class ListFunnelStages {
  constructor(
    private readonly uow: UnitOfWork<CrmRepositories & CompanyRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}
  execute(companyId: string): Promise<FunnelStage[]> {
    return this.uow.transaction(async (repos) => {
      const stages = await repos.funnelStages.listByCompany(companyId);
      if (stages.length > 0) return stages;
      if (!(await repos.companies.findById(companyId))) throw new NotFoundError('Company');
      return ensureFunnel(repos, companyId, this.ids, this.clock.now());
    });
  }
}

/** A new stage as the operator names it. */
export interface NewStageInput extends StageInput {
  name: string;
}

/**
 * The operator's changes to a funnel (`/admin/v1/companies/:id/crm/stages`). Each change locks the
 * company row, so that concurrent changes are checked one after the other against the invariants.
 */
export class ManageFunnelStages {
  constructor(
    private readonly uow: UnitOfWork<CrmRepositories & CompanyRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  private async change<T>(companyId: string, work: (stages: FunnelStage[], now: Date, repos: Repositories<CrmRepositories>) => Promise<{ stages: FunnelStage[]; result: T }>): Promise<T> {
    return this.uow.transaction(async (repos) => {
      const company = await repos.companies.findByIdForUpdate(companyId);
      if (!company) throw new NotFoundError('Company');
      const now = this.clock.now();
      const current = await ensureFunnel(repos, companyId, this.ids, now);
      const { stages, result } = await work(current, now, repos);
      assertFunnelInvariants(stages);
      await repos.funnelStages.saveFunnel(companyId, stages);
      return result;
    });
  }

  create(companyId: string, input: NewStageInput): Promise<FunnelStage> {
    return this.change(companyId, async (stages, now) => {
      const blank: FunnelStage = {
        id: this.ids.newId(),
        companyId,
        name: input.name,
        position: input.position ?? stages.length + 1,
        isWon: false,
        isLost: false,
        winProbability: 0,
        color: null,
        createdAt: now,
        updatedAt: now,
      };
      const stage = shapeStage(blank, input, now);
      const next = renumber(stages, stage);
      return { stages: next, result: next.find((s) => s.id === stage.id)! };
    });
  }

  update(companyId: string, id: string, input: StageInput): Promise<FunnelStage> {
    return this.change(companyId, async (stages, now) => {
      const stage = stages.find((s) => s.id === id);
      if (!stage) throw new NotFoundError('Stage');
      const changed = shapeStage(stage, input, now);
      const next = input.position !== undefined ? renumber(stages, changed) : stages.map((s) => (s.id === id ? changed : s));
      return { stages: next, result: next.find((s) => s.id === id)! };
    });
  }

  /** {@link update} of a stage named by id alone (the operator's route). */
  async updateById(id: string, input: StageInput): Promise<FunnelStage> {
    return this.update(await this.companyOf(id), id, input);
  }

  /** {@link delete} of a stage named by id alone (the operator's route). */
  async deleteById(id: string): Promise<{ id: string; deleted: true }> {
    return this.delete(await this.companyOf(id), id);
  }

  private async companyOf(id: string): Promise<string> {
    const companyId = await this.uow.transaction((repos) => repos.funnelStages.companyOf(id));
    if (!companyId) throw new NotFoundError('Stage');
    return companyId;
  }

  /** A stage any opportunity is or was in cannot be deleted (409 CONFLICT `invariant: stage_in_use`). */
  delete(companyId: string, id: string): Promise<{ id: string; deleted: true }> {
    return this.change(companyId, async (stages, _now, repos) => {
      if (!stages.some((s) => s.id === id)) throw new NotFoundError('Stage');
      // Locked first: a move or creation that holds the stage (findByIdForUse) finishes before the check below sees it.
      if (!(await repos.funnelStages.findByIdForUpdate(companyId, id))) throw new NotFoundError('Stage');
      if (await repos.funnelStages.isUsed(companyId, id)) {
        throw new DomainError('CONFLICT', 'The stage has opportunities and cannot be deleted', { invariant: 'stage_in_use' });
      }
      return { stages: renumber(stages.filter((s) => s.id !== id)), result: { id, deleted: true as const } };
    });
  }
}
