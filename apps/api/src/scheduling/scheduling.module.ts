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
import { bindSingleton } from '@carteiro/system';

/** Scheduled messages, appointments and the scheduling catalogue (routes: *.routes.ts of this folder). */
export const schedulingModule = new ContainerModule(({ bind, isBound }) => {
  bind(QueueDefinitions).toConstantValue(schedulingQueueDefinitions);
  if (!isBound(HolidayCalendar)) bind<HolidayCalendar>(HolidayCalendar).toConstantValue(new BrazilianHolidayCalendar());
  bindSingleton(bind, ScheduleMessage, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ReadScheduledMessages, [Repositories]);
  bindSingleton(bind, CancelScheduledMessage, [UnitOfWork, Clock]);
  bindSingleton(bind, ManageSchedulingCatalog, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ReadSchedulingCatalog, [Repositories]);
  bindSingleton(bind, GetAvailability, [Repositories, Clock, HolidayCalendar]);
  bindSingleton(bind, BookAppointment, [UnitOfWork, Clock, IdGenerator, HolidayCalendar]);
  bindSingleton(bind, ChangeAppointment, [UnitOfWork, Clock, IdGenerator, HolidayCalendar]);
  bindSingleton(bind, CancelAppointment, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ReadAppointments, [Repositories, Clock]);
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
  bindSingleton(bind, UpcomingAppointments, [Repositories, Clock]);
});
