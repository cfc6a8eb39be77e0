import { InstanceUseCase, type InstanceRequest } from './instance-use-case.js';
import { apiActor } from '../shared/domain-event.js';
import type { ChannelInstance } from './channel-instance.js';
import { applyCommand } from '../shared/apply-command.js';

/**
 * GET /v1/channel/instances/:id/status: asks the provider for the session and moves the instance
 * along (connecting, connected, or lost), recording `channel.session_connected` /
 * `channel.session_disconnected` with the change. An instance nobody is connecting is answered
 * from the database without asking the provider.
 */
export class GetInstanceStatus extends InstanceUseCase {
  async execute(input: InstanceRequest): Promise<ChannelInstance> {
    const { instance, setor } = await this.load(input);
    if (instance.status === 'disconnected' && instance.qrRequestedAt === null) return instance;
    const state = await this.gateway.sessionState({ setor, instance, mode: input.mode });
    const result = await applyCommand(this.uow, this.instanceOf(setor.id, apiActor), {
      type: 'observe-session',
      at: this.clock.now(),
      ...state,
    });
    return result?.state ?? instance;
  }
}
