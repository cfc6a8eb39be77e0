import {
  BookAppointment,
  CancelAppointment,
  CancelScheduledMessage,
  ConfirmAppointmentByReply,
  ChangeAppointment,
  Clock,
  GetAvailability,
  HolidayCalendar,
  IdGenerator,
  InboundMessageListener,
  ManageSchedulingCatalog,
  QuotaUsageCounter,
  ReadAppointments,
  ReadScheduledMessages,
  ReadSchedulingCatalog,
  Repositories,
  ScheduleMessage,
  schedulingQueueDefinitions,
  UnitOfWork,
  UpcomingAppointments,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';
import { BrazilianHolidayCalendar } from './brazilian-holiday-calendar.js';

/** Scheduled messages, appointments and the scheduling catalogue (routes: *.routes.ts of this folder). */
export const schedulingModule = new ContainerModule(({ bind, isBound }) => {
  bind(QueueDefinitions).toConstantValue(schedulingQueueDefinitions);
  if (!isBound(HolidayCalendar)) bind<HolidayCalendar>(HolidayCalendar).toConstantValue(new BrazilianHolidayCalendar());
  bind(ScheduleMessage)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new ScheduleMessage(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ReadScheduledMessages)
    .toResolvedValue((repos: ServiceRepositories) => new ReadScheduledMessages(repos), [Repositories])
    .inSingletonScope();
  bind(CancelScheduledMessage)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new CancelScheduledMessage(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(ManageSchedulingCatalog)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new ManageSchedulingCatalog(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ReadSchedulingCatalog)
    .toResolvedValue((repos: ServiceRepositories) => new ReadSchedulingCatalog(repos), [Repositories])
    .inSingletonScope();
  bind(GetAvailability)
    .toResolvedValue((repos: ServiceRepositories, clock: Clock, calendar: HolidayCalendar) => new GetAvailability(repos, clock, calendar), [Repositories, Clock, HolidayCalendar])
    .inSingletonScope();
  bind(BookAppointment)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, calendar: HolidayCalendar) => new BookAppointment(uow, clock, ids, calendar),
      [UnitOfWork, Clock, IdGenerator, HolidayCalendar],
    )
    .inSingletonScope();
  bind(ChangeAppointment)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, calendar: HolidayCalendar) => new ChangeAppointment(uow, clock, ids, calendar),
      [UnitOfWork, Clock, IdGenerator, HolidayCalendar],
    )
    .inSingletonScope();
  bind(CancelAppointment)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new CancelAppointment(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ReadAppointments)
    .toResolvedValue((repos: ServiceRepositories, clock: Clock) => new ReadAppointments(repos, clock), [Repositories, Clock])
    .inSingletonScope();
  // A reply "sim"/"1" to a reminder confirms its appointment (after the inbound message is recorded).
  bind<InboundMessageListener>(InboundMessageListener)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new ConfirmAppointmentByReply(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  // The plan quotas of this area, as GET /v1/limits shows them.
  bind<QuotaUsageCounter>(QuotaUsageCounter).toResolvedValue(
    (repos: ServiceRepositories) => ({ quota: 'appointments_per_month', count: (company, window) => repos.appointments.countLive(company.id, window!.from, window!.resetsAt) }),
    [Repositories],
  );
  bind<QuotaUsageCounter>(QuotaUsageCounter).toResolvedValue(
    (repos: ServiceRepositories) => ({ quota: 'scheduled_messages_pending', count: (company) => repos.scheduledMessages.countPending(company.id) }),
    [Repositories],
  );
  bind(UpcomingAppointments)
    .toResolvedValue((repos: ServiceRepositories, clock: Clock) => new UpcomingAppointments(repos, clock), [Repositories, Clock])
    .inSingletonScope();
});
