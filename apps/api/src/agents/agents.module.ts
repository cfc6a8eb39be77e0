import { AgentStatusListener, Clock, IdGenerator, ManageAgents, ManageQuickReplies, ManageTeams, Repositories, UnitOfWork } from '@carteiro/core';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';

const listeners = { serviceIdentifier: AgentStatusListener, isMultiple: true, optional: true } as const;

/** Agents, team members and settings, quick replies (routes: agents.routes.ts). */
export const agentsModule = new ContainerModule(({ bind }) => {
  bind(ManageAgents)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, ids: IdGenerator, clock: Clock, found?: AgentStatusListener[]) => new ManageAgents(uow, repos, ids, clock, found ?? []),
      [UnitOfWork, Repositories, IdGenerator, Clock, listeners],
    )
    .inSingletonScope();
  bind(ManageTeams)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, clock: Clock, found?: AgentStatusListener[]) => new ManageTeams(uow, repos, clock, found ?? []),
      [UnitOfWork, Repositories, Clock, listeners],
    )
    .inSingletonScope();
  bindSingleton(bind, ManageQuickReplies, [UnitOfWork, Repositories, IdGenerator, Clock]);
});
