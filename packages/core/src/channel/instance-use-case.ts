import type { KeyMode } from '../api-keys/index.js';
import type { EventActor } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { Setor, SetorRepositories } from '../setores/index.js';
import type { ChannelGateway } from './channel-gateway.js';
import type { ChannelInstance } from './channel-instance.js';
import type { ChannelRepositories } from './channel-repositories.js';
import { instanceOfSetor } from './instance-transitions.js';
import { loadInstanceInCompany } from './load-instance.js';

/** What a company's request about one of its instances names: the instance, and the key's mode. */
export interface InstanceRequest {
  companyId: string;
  instanceId: string;
  mode: KeyMode;
}

/**
 * The base of the use cases that ask the gateway about one setor's session and move its instance
 * along: the ports they share, the company's instance with its setor (404 for another company's),
 * and the instance as a stored state machine acting for `actor`.
 */
export abstract class InstanceUseCase {
  constructor(
    protected readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    protected readonly repos: Repositories<ChannelRepositories & SetorRepositories>,
    protected readonly gateway: ChannelGateway,
    protected readonly clock: Clock,
    protected readonly ids: IdGenerator,
  ) {}

  /** The company's instance and its setor; another company's instance reads as missing. */
  protected load(input: InstanceRequest): Promise<{ instance: ChannelInstance; setor: Setor }> {
    return loadInstanceInCompany(this.repos, input.companyId, input.instanceId);
  }

  /** The setor's instance as a stored state machine whose events `actor` records. */
  protected instanceOf(setorId: string, actor: EventActor) {
    return instanceOfSetor(setorId, this.ids, actor);
  }
}
