import { InstanceUseCase, type InstanceRequest } from './instance-use-case.js';
import { apiActor } from '../shared/domain-event.js';
import type { ChannelInstance } from './channel-instance.js';
import { applyCommand } from '../shared/apply-command.js';

export interface DisconnectResult {
  instance: ChannelInstance;
  /** The instance was connected (a `channel.session_disconnected` event was recorded). */
  wasConnected: boolean;
}

/**
 * POST /v1/channel/instances/:id/disconnect: logs the session out at the provider, then marks the
 * instance disconnected. Idempotent: an already disconnected instance answers the same way.
 */
export class DisconnectChannelInstance extends InstanceUseCase {
  async execute(input: InstanceRequest): Promise<DisconnectResult> {
    const { instance, setor } = await this.load(input);
    if (instance.status !== 'disconnected' || instance.qrRequestedAt !== null) {
      await this.gateway.disconnect({ setor, instance, mode: input.mode });
    }
    const result = await applyCommand(this.uow, this.instanceOf(setor.id, apiActor), {
      type: 'disconnect',
      at: this.clock.now(),
      reason: 'user',
    });
    const wasConnected = result?.events.some((e) => e.type === 'disconnected' && e.previousStatus === 'connected') ?? false;
    return { instance: result?.state ?? instance, wasConnected };
  }
}
