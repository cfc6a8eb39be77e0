import { Clock, GetSummaryReport, ReportQueries } from '@carteiro/core';
import { Db, KyselyReportQueries, type Database } from '@carteiro/postgres';
import { bindSingleton } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';

/** The summary report on SQL aggregates. */
export const reportsModule = new ContainerModule(({ bind }) => {
  bind(ReportQueries).toResolvedValue((db: Kysely<Database>) => new KyselyReportQueries(db), [Db]).inSingletonScope();
  bindSingleton(bind, GetSummaryReport, [ReportQueries, Clock]);
});
