import type { ChannelInstance } from '../channel/index.js';
import { createCompany, type Company, type CompanySettingsInput } from '../companies/index.js';
import { createSetor, type Setor } from '../setores/index.js';
import {
  CreateCampaign,
  DEFAULT_DISPATCH_SETTINGS,
  RunDispatchLane,
  StartCampaign,
  type CampaignEngineSettings,
  type CreateCampaignCommand,
  type DispatchSettings,
  type SenderFailureHandler,
} from '../campaigns/index.js';
import type { KeyMode } from '../api-keys/index.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { SendFailureCode } from '../channel/index.js';
import { FakeChannelGateway } from '../channel/testing/index.js';
import { FixedRandom, SequentialIds } from '../shared/testing/deterministic.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { ManualSleeper } from '../campaigns/testing/index.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { SetorRepositories } from '../setores/index.js';

/** Marks the instance disconnected, as the channel feature's HandleSenderFailure does. */
class DisconnectOnSenderFailure implements SenderFailureHandler {
  readonly reported: { setorId: string; code: SendFailureCode }[] = [];
  async within(repos: Repositories<ChannelRepositories & CompanyRepositories & SetorRepositories>, input: { setorId: string; code: SendFailureCode }) {
    this.reported.push({ setorId: input.setorId, code: input.code });
    const instance = await repos.channelInstances.findBySetor(input.setorId);
    if (instance) await repos.channelInstances.update({ ...instance, status: 'disconnected' });
  }
}

/**
 * A company with connected setores on in-memory fakes, a manual clock (15:00 in Brasília), a
 * fake gateway and a sleeper that moves the clock: everything the campaign use cases need.
 */
export class CampaignWorld {
  readonly clock = new ManualClock('2026-01-15T18:00:00.000Z');
  readonly ids = new SequentialIds();
  readonly uow = new InMemoryUnitOfWork();
  readonly repos = this.uow.repos;
  readonly gateway = new FakeChannelGateway(this.clock);
  readonly sleeper = new ManualSleeper(this.clock);
  readonly senderFailures = new DisconnectOnSenderFailure();
  readonly settings: CampaignEngineSettings = { pacingScale: 1 };
  company!: Company;
  setores: Setor[] = [];

  static async create(companyInput: CompanySettingsInput = {}, boxes = 1): Promise<CampaignWorld> {
    const world = new CampaignWorld();
    world.company = createCompany(world.ids.newId(), world.clock.now(), { name: 'Acme', ...companyInput });
    await world.repos.companies.insert(world.company);
    for (let i = 0; i < boxes; i += 1) await world.addBox(true);
    return world;
  }

  async addBox(connected: boolean): Promise<Setor> {
    const setor = createSetor(this.ids.newId(), this.company.id, new Date(this.clock.now().getTime() + this.setores.length), { nome: `Box ${this.setores.length + 1}` });
    await this.repos.setores.insert(setor);
    const instance: ChannelInstance = {
      id: this.ids.newId(),
      companyId: this.company.id,
      setorId: setor.id,
      status: connected ? 'connected' : 'disconnected',
      phoneNumber: connected ? `+55119000000${this.setores.length}` : null,
      providerRef: null,
      proxyConfigured: false,
      qrRequestedAt: null,
      connectedAt: connected ? this.clock.now() : null,
      disconnectedAt: null,
      profileName: null,
      profilePictureUrl: null,
      createdAt: this.clock.now(),
      updatedAt: this.clock.now(),
    };
    await this.repos.channelInstances.insert(instance);
    this.setores.push(setor);
    return setor;
  }

  createCampaign(): CreateCampaign {
    return new CreateCampaign(this.uow, this.clock, this.ids, this.settings);
  }

  startCampaign(): StartCampaign {
    return new StartCampaign(this.uow, this.clock, this.ids);
  }

  /** Creates and starts a campaign 'Promo' of the world's company saying 'Oi' to `phones` (`more` adds to or replaces the command's fields); answers its id. */
  async launch(phones: readonly string[], more: CreateCampaignCommand = {}, mode: KeyMode = 'live'): Promise<string> {
    const { created } = await this.createCampaign().execute(
      { companyId: this.company.id, apiKeyId: null, mode },
      { name: 'Promo', recipients: phones.map((phone) => ({ phone })), message: { text: 'Oi' }, ...more },
    );
    await this.startCampaign().execute(created.id);
    return created.id;
  }

  lane(overrides: Partial<DispatchSettings> = {}, random = new FixedRandom(0)): RunDispatchLane {
    return new RunDispatchLane(this.uow, this.clock, this.ids, random, this.gateway, this.sleeper, this.senderFailures, {
      ...DEFAULT_DISPATCH_SETTINGS,
      pacingScale: this.settings.pacingScale,
      ...overrides,
    });
  }

  get events() {
    return this.uow.store.events;
  }

  get jobs() {
    return this.uow.store.jobs;
  }

  /** Runs every setor's lane until none has work left (a bounded number of rounds). */
  async drain(overrides: Partial<DispatchSettings> = {}, rounds = 50): Promise<void> {
    const lane = this.lane({ maxInProcessWaitMs: Number.POSITIVE_INFINITY, sliceMs: Number.POSITIVE_INFINITY, ...overrides });
    for (let i = 0; i < rounds; i += 1) {
      let worked = false;
      for (const setor of this.setores) {
        const result = await lane.run(setor.id, `test-${i}`);
        if (result.sent + result.failed > 0) worked = true;
        if (result.rescheduleAt && result.rescheduleAt > this.clock.now()) {
          this.clock.advance(result.rescheduleAt.getTime() - this.clock.now().getTime());
          worked = true;
        }
      }
      if (!worked) return;
    }
  }
}
