import * as m0010 from './0010-scheduling.js';
import * as m0019 from './0019-appointment-notices.js';
import * as m0032 from './0032-scheduled-messages-client-and-pending.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyAppointmentRepository, KyselyScheduledMessageRepository, KyselySchedulingCatalogRepository } from './kysely-scheduling-repositories.js';

/** Units, professionals, appointment types, appointments with their busy time, and timed sends. */
export const schedulingArea = postgresArea({
  migrations: { '0010-scheduling': m0010, '0019-appointment-notices': m0019, '0032-scheduled-messages-client-and-pending': m0032 },
  repositories: (db) => ({
    schedulingCatalog: new KyselySchedulingCatalogRepository(db),
    appointments: new KyselyAppointmentRepository(db),
    scheduledMessages: new KyselyScheduledMessageRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { SchedulingTables } from './scheduling-tables.js';
