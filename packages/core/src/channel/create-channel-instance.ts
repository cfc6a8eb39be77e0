import type { Clock } from '../shared/clock.js';
import { NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { createChannelInstance, type ChannelInstance } from './channel-instance.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

export interface CreateChannelInstanceResult {
  instance: ChannelInstance;
  /** The setor already had an instance, which is returned as it is. */
  reused: boolean;
}

/** POST /v1/channel/instances: the setor's instance, created `disconnected` on first call and reused after. */
export class CreateChannelInstance {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { companyId: string; setorId: string }): Promise<CreateChannelInstanceResult> {
    try {
      return await this.uow.transaction((repos) => this.createOrReuse(repos, input));
    } catch (error) {
      // Two concurrent creates for one setor: the loser's insert breaks the one-instance-per-setor
      // constraint; the instance the winner created is the answer.
      const existing = await this.uow.transaction((repos) => repos.channelInstances.findBySetor(input.setorId));
      if (existing && existing.companyId === input.companyId) return { instance: existing, reused: true };
      throw error;
    }
  }

  private async createOrReuse(repos: Repositories<ChannelRepositories & SetorRepositories>, input: { companyId: string; setorId: string }): Promise<CreateChannelInstanceResult> {
    const setor = await repos.setores.findByIdInCompany(input.companyId, input.setorId);
    if (!setor) throw new NotFoundError('Box', { setor_id: input.setorId });
    const existing = await repos.channelInstances.findBySetor(setor.id);
    if (existing) return { instance: existing, reused: true };
    const instance = createChannelInstance(this.ids.newId(), setor, this.clock.now());
    await repos.channelInstances.insert(instance);
    return { instance, reused: false };
  }
}
