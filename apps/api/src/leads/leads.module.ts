import {
  Clock,
  DnsResolver,
  IdGenerator,
  leadQueueDefinitions,
  ReadLeadSearch,
  Repositories,
  SaveLeadsToCrm,
  SimulatedDnsResolver,
  SimulatedDnsResolverToken,
  StartLeadSearch,
  UnitOfWork,
  ValidateChannel,
  ValidateEmailMx,
  ChannelGateway,
  QuotaUsageCounter,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';
import { NodeDnsResolver } from './node-dns-resolver.js';
import { bindSingleton } from '@carteiro/system';

/** The source live keys read: `LEAD_SOURCE` (sample|cnpja), the sample by default. */
export function leadSourceName(env: NodeJS.ProcessEnv = process.env): string {
  return env.LEAD_SOURCE === 'cnpja' ? 'cnpja' : 'sample';
}

/** The leads area's use cases, the DNS resolvers (node:dns for live keys, the simulated one for test keys) and its queue. */
export const leadsModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(leadQueueDefinitions);
  bind(DnsResolver).toConstantValue(new NodeDnsResolver());
  bind(SimulatedDnsResolverToken).toConstantValue(new SimulatedDnsResolver());
  bind(StartLeadSearch)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new StartLeadSearch(uow, clock, ids, leadSourceName()), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bindSingleton(bind, ReadLeadSearch, [Repositories, Clock]);
  bindSingleton(bind, SaveLeadsToCrm, [UnitOfWork, Clock, IdGenerator]);
  // The plan quota of this area, as GET /v1/limits shows it: live-key searches of the company's day.
  bind<QuotaUsageCounter>(QuotaUsageCounter).toResolvedValue(
    (repos: ServiceRepositories) => ({ quota: 'lead_searches_per_day', count: (company, window) => repos.leadSearches.countLiveSince(company.id, window!.from) }),
    [Repositories],
  );
  bindSingleton(bind, ValidateChannel, [Repositories, ChannelGateway, Clock]);
  bind(ValidateEmailMx)
    .toResolvedValue((live: DnsResolver, test: DnsResolver, clock: Clock) => new ValidateEmailMx({ live, test }, clock), [DnsResolver, SimulatedDnsResolverToken, Clock])
    .inSingletonScope();
});
