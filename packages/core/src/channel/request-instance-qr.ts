import { InstanceUseCase, type InstanceRequest } from './instance-use-case.js';
import { apiActor } from '../shared/domain-event.js';
import { qrSecondsLeft, type InstanceStatus } from './channel-instance.js';
import { handleCommand } from '../shared/apply-command.js';

export interface InstanceQrResult {
  instanceId: string;
  /** PNG data URL; null when no code is needed (already connected, or an official setor). */
  qrCode: string | null;
  expiresInSeconds: number;
  status: InstanceStatus;
  phoneNumber: string | null;
}

/**
 * GET /v1/channel/instances/:id/qr: opens a QR window (60 s) unless one is open, and asks the
 * gateway for the code. Within the window the same code comes back with the seconds left; after
 * it, a new code. A connected instance is refused (409 INVALID_TRANSITION).
 */
export class RequestInstanceQr extends InstanceUseCase {
  async execute(input: InstanceRequest): Promise<InstanceQrResult> {
    const { setor, instance: found } = await this.load(input);
    const opened = await this.uow.transaction((repos) =>
      handleCommand(repos, this.instanceOf(setor.id, apiActor), { type: 'request-qr', at: this.clock.now() }),
    );
    let instance = opened?.state ?? found;
    const qr = await this.gateway.connect({ setor, instance, mode: input.mode });
    const proxyChanged = qr.proxyConfigured !== undefined && qr.proxyConfigured !== instance.proxyConfigured;
    if (qr.state || (qr.providerRef && qr.providerRef !== instance.providerRef) || proxyChanged) {
      instance = await this.uow.transaction(async (repos) => {
        const locked = await repos.channelInstances.findBySetorForUpdate(setor.id);
        if (!locked) return instance;
        let current = locked;
        const refChanged = qr.providerRef && locked.providerRef !== qr.providerRef;
        // The gateway set (or found) the session's proxy: `proxy_configured` tells the company.
        const proxyNow = qr.proxyConfigured !== undefined && locked.proxyConfigured !== qr.proxyConfigured;
        if (refChanged || proxyNow) {
          current = {
            ...locked,
            ...(refChanged ? { providerRef: qr.providerRef! } : {}),
            ...(proxyNow ? { proxyConfigured: qr.proxyConfigured! } : {}),
          };
          await repos.channelInstances.update(current);
        }
        if (!qr.state) return current;
        const observed = { type: 'observe-session', at: this.clock.now(), ...qr.state } as const;
        return (await handleCommand(repos, this.instanceOf(setor.id, apiActor), observed))?.state ?? current;
      });
    }
    const showCode = qr.qrCode !== null && instance.status !== 'connected';
    return {
      instanceId: instance.id,
      qrCode: showCode ? qr.qrCode : null,
      expiresInSeconds: showCode ? qrSecondsLeft(instance, this.clock.now()) || qr.expiresInSeconds : 0,
      status: instance.status,
      phoneNumber: instance.phoneNumber,
    };
  }
}
