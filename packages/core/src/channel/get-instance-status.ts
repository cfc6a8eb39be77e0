import type { KeyMode } from '../api-keys/index.js';
import { apiActor } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ChannelGateway } from './channel-gateway.js';
import type { ChannelInstance } from './channel-instance.js';
import { applyCommand } from '../shared/apply-command.js';
import { instanceOfSetor } from './instance-transitions.js';
import { loadInstanceInCompany } from './load-instance.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

/**
 * GET /v1/channel/instances/:id/status: asks the provider for the session and moves the instance
 * along (connecting, connected, or lost), recording `channel.session_connected` /
 * `channel.session_disconnected` with the change. An instance nobody is connecting is answered
 * from the database without asking the provider.
 */
export class GetInstanceStatus {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    private readonly repos: Repositories<ChannelRepositories & SetorRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { companyId: string; instanceId: string; mode: KeyMode }): Promise<ChannelInstance> {
    const { instance, setor } = await loadInstanceInCompany(this.repos, input.companyId, input.instanceId);
    if (instance.status === 'disconnected' && instance.qrRequestedAt === null) return instance;
    const state = await this.gateway.sessionState({ setor, instance, mode: input.mode });
    const result = await applyCommand(this.uow, instanceOfSetor(setor.id, this.ids, apiActor), {
      type: 'observe-session',
      at: this.clock.now(),
      ...state,
    });
    return result?.state ?? instance;
  }
}
