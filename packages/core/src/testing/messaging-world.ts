import type { ChannelInstance } from '../channel/index.js';
import { HandleSenderFailure } from '../channel/index.js';
import { createCompany, type Company, type CompanySettingsInput } from '../companies/index.js';
import { SendMessage } from '../messages/index.js';
import { createSetor, type ChannelType, type Setor } from '../setores/index.js';
import type { Team } from '../teams/index.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { FakeChannelGateway } from '../channel/testing/index.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';

/**
 * An in-memory world for single-send tests: a company, setores with connected (or not)
 * instances, teams, the fake gateway, and the `SendMessage` use case wired to them.
 */
export class MessagingWorld {
  readonly clock = new ManualClock('2026-01-15T15:00:00.000Z');
  readonly ids = new SequentialIds();
  readonly uow = new InMemoryUnitOfWork();
  readonly repos = this.uow.repos;
  readonly gateway = new FakeChannelGateway(this.clock);
  readonly senderFailures = new HandleSenderFailure(this.uow, this.clock, this.ids);
  readonly sendMessage = new SendMessage(this.uow, this.repos, this.gateway, this.senderFailures, this.clock, this.ids);

  async company(input: CompanySettingsInput = {}): Promise<Company> {
    const company = createCompany(this.ids.newId(), this.clock.now(), { name: 'Acme', ...input });
    await this.repos.companies.insert(company);
    return company;
  }

  /** A setor with an instance (connected unless told otherwise). Each setor is created 1 ms after the previous. */
  async box(company: Company, options: { channelType?: ChannelType; connected?: boolean; instance?: boolean; number?: string } = {}): Promise<Setor> {
    this.clock.advance(1);
    const channelType = options.channelType ?? 'qr';
    const setor = createSetor(this.ids.newId(), company.id, this.clock.now(), {
      nome: `Box ${channelType}`,
      channelType,
      official: channelType === 'official' ? { phoneNumberId: '123', accessToken: 'token', wabaId: 'waba' } : null,
    });
    await this.repos.setores.insert(setor);
    if (options.instance !== false) {
      const connected = options.connected ?? true;
      const now = this.clock.now();
      const instance: ChannelInstance = {
        id: this.ids.newId(),
        companyId: company.id,
        setorId: setor.id,
        status: connected ? 'connected' : 'disconnected',
        phoneNumber: connected ? (options.number ?? `+55119${String(80000000 + Number(setor.id.slice(-6)))}`) : null,
        providerRef: null,
        proxyConfigured: false,
        qrRequestedAt: null,
        connectedAt: connected ? now : null,
        disconnectedAt: null,
        profileName: null,
        profilePictureUrl: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.repos.channelInstances.insert(instance);
    }
    return setor;
  }

  async team(company: Company, setores: Setor[]): Promise<Team> {
    const team: Team = { id: this.ids.newId(), companyId: company.id, nome: 'Time', setorIds: setores.map((s) => s.id), autoAssign: false, maxOpenPerAgent: 10, createdAt: this.clock.now() };
    await this.repos.teams.insert(team);
    return team;
  }

  /** Domain events recorded so far, by name. */
  events(name?: string) {
    return this.uow.store.events.filter((e) => name === undefined || e.event === name);
  }
}
