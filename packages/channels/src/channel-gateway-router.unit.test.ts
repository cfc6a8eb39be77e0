import { describe, expect, it } from '@jest/globals';
import { createChannelInstance, createSetor, type ChannelGateway, type KeyMode, type SendRequest } from '@carteiro/core';
import { FakeChannelGateway, ManualClock } from '@carteiro/core/testing';
import { ChannelGatewayRouter } from './channel-gateway-router.js';

const clock = new ManualClock();
const qrSetor = createSetor('s-qr', 'c-1', clock.now(), { nome: 'QR' });
const officialSetor = createSetor('s-off', 'c-1', clock.now(), {
  nome: 'Oficial',
  channelType: 'official',
  official: { phoneNumberId: '1', accessToken: 't', wabaId: 'w' },
});

/** A gateway that records which adapter served each call. */
function named(name: string, log: string[]): ChannelGateway {
  const fake = new FakeChannelGateway(clock);
  return new Proxy(fake, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        log.push(`${name}.${String(property)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

function router(configured: { qr: boolean; official: boolean }) {
  const log: string[] = [];
  const gateway = new ChannelGatewayRouter({
    simulator: named('simulator', log),
    qrProvider: configured.qr ? named('qr', log) : null,
    official: configured.official ? named('official', log) : null,
  });
  return { gateway, log };
}

const send = (setor: typeof qrSetor, mode: KeyMode, providerRef: string | null = null): SendRequest => ({
  setor,
  instance: { ...createChannelInstance('i-1', setor, clock.now()), providerRef },
  mode,
  to: '+5511955551234',
  content: { kind: 'text', text: 'x' },
  clientMessageId: 'c',
});

describe('channel gateway router', () => {
  it('sends every test-key call to the simulator', async () => {
    const { gateway, log } = router({ qr: true, official: true });
    await gateway.send(send(qrSetor, 'test'));
    await gateway.send(send(officialSetor, 'test'));
    await gateway.connect(send(qrSetor, 'test'));
    expect(log).toEqual(['simulator.send', 'simulator.send', 'simulator.connect']);
  });

  it('picks the provider of the box type for live keys, or the simulator when none is configured', async () => {
    const both = router({ qr: true, official: true });
    await both.gateway.send(send(qrSetor, 'live'));
    await both.gateway.send(send(officialSetor, 'live'));
    both.gateway.capabilities(officialSetor, 'live');
    expect(both.log).toEqual(['qr.send', 'official.send', 'official.capabilities']);
    const none = router({ qr: false, official: false });
    await none.gateway.send(send(qrSetor, 'live'));
    await none.gateway.probe(send(officialSetor, 'live'));
    expect(none.log).toEqual(['simulator.send', 'simulator.probe']);
  });

  it('keeps a session the simulator holds with the simulator, until a live key connects the box again', async () => {
    const { gateway, log } = router({ qr: true, official: false });
    await gateway.sessionState(send(qrSetor, 'live', 'sim:i-1'));
    await gateway.send(send(qrSetor, 'live', 'sim:i-1'));
    await gateway.connect(send(qrSetor, 'live', 'sim:i-1'));
    await gateway.probe(send(qrSetor, 'live', 'carteiro-i-1'));
    expect(log).toEqual(['simulator.sessionState', 'simulator.send', 'qr.connect', 'qr.probe']);
    expect(gateway.route({ setor: qrSetor, mode: 'live' })).toBe('qr-provider');
  });

  it('routes edits, deletes and reactions as the send they act on', async () => {
    const { gateway, log } = router({ qr: true, official: true });
    const ref = { to: '+5511955551234', providerMessageId: 'p-1' };
    await gateway.editMessage(send(qrSetor, 'live'), { ...ref, text: 'x' });
    await gateway.deleteMessage(send(qrSetor, 'live', 'sim:i-1'), ref);
    await gateway.react(send(officialSetor, 'live'), { ...ref, emoji: '👍' });
    await gateway.react(send(qrSetor, 'test'), { ...ref, emoji: '' });
    expect(log).toEqual(['qr.editMessage', 'simulator.deleteMessage', 'official.react', 'simulator.react']);
  });
});
