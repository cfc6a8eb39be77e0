import {
  AgentStatusListener,
  Clock,
  IdGenerator,
  ManageTickets,
  OpenTicket,
  ReadTickets,
  Repositories,
  TicketAssignmentOnAgentChange,
  UnitOfWork,
  queueClosingSends,
  ticketQueueDefinitions,
  type TicketClosingStep,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** The closing side effects of PATCH status: the closing area's `queueClosingSends`, in the closing transaction. */
const closingStep: TicketClosingStep = (repos, input) => queueClosingSends(repos as Parameters<typeof queueClosingSends>[0], input);

/**
 * The tickets' use cases (routes: tickets.routes.ts), the auto-assignment told of agents' changes
 * (an `AgentStatusListener`), and the queue snoozes enqueue their wake-up into.
 */
export const ticketsModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(ticketQueueDefinitions);
  bind(TicketAssignmentOnAgentChange)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, ids: IdGenerator, clock: Clock) => new TicketAssignmentOnAgentChange(uow, repos, ids, clock),
      [UnitOfWork, Repositories, IdGenerator, Clock],
    )
    .inSingletonScope();
  bind(AgentStatusListener).toService(TicketAssignmentOnAgentChange);
  bind(ReadTickets)
    .toResolvedValue((repos: ServiceRepositories, clock: Clock) => new ReadTickets(repos, clock), [Repositories, Clock])
    .inSingletonScope();
  bind(OpenTicket)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new OpenTicket(uow, ids, clock), [UnitOfWork, IdGenerator, Clock])
    .inSingletonScope();
  bind(ManageTickets)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock, assignment: TicketAssignmentOnAgentChange) => new ManageTickets(uow, ids, clock, closingStep, assignment),
      [UnitOfWork, IdGenerator, Clock, TicketAssignmentOnAgentChange],
    )
    .inSingletonScope();
});
