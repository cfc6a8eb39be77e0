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

export interface DisconnectResult {
  instance: ChannelInstance;
  /** The instance was connected (a `channel.session_disconnected` event was recorded). */
  wasConnected: boolean;
}

/**
 * POST /v1/channel/instances/:id/disconnect: logs the session out at the provider, then marks the
 * instance disconnected. Idempotent: an already disconnected instance answers the same way.
 */
export class DisconnectChannelInstance {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    private readonly repos: Repositories<ChannelRepositories & SetorRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { companyId: string; instanceId: string; mode: KeyMode }): Promise<DisconnectResult> {
    const { instance, setor } = await loadInstanceInCompany(this.repos, input.companyId, input.instanceId);
    if (instance.status !== 'disconnected' || instance.qrRequestedAt !== null) {
      await this.gateway.disconnect({ setor, instance, mode: input.mode });
    }
    const result = await applyCommand(this.uow, instanceOfSetor(setor.id, this.ids, apiActor), {
      type: 'disconnect',
      at: this.clock.now(),
      reason: 'user',
    });
    const wasConnected = result?.events.some((e) => e.type === 'disconnected' && e.previousStatus === 'connected') ?? false;
    return { instance: result?.state ?? instance, wasConnected };
  }
}
