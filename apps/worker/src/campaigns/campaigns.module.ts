import {
  CampaignEngineSettings,
  CampaignQueues,
  campaignQueueDefinitions,
  ChannelGateway,
  Clock,
  DEFAULT_DISPATCH_SETTINGS,
  DispatchObserver,
  HandleSenderFailure,
  IDEMPOTENCY_TTL_MS,
  PrepareCampaign,
  IdGenerator,
  JobScheduler,
  Random,
  Repositories,
  RunDispatchLane,
  Sleeper,
  StartCampaign,
  SweepCampaigns,
  TimedSends,
  UnitOfWork,
  type DispatchSettings,
} from '@carteiro/core';
import { BOSS_SCHEMA, QueueDefinitions, WORKER_QUEUE_APPLICATION } from '@carteiro/pgboss';
import { AppConfig, type Config } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { BackgroundService, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';
import { campaignLaneJob, campaignPrepareJob, campaignStartJob, campaignStartupSweep, campaignSweepJob } from './campaign-jobs.js';
import { LaneRunner, type LaneSharing } from './lane-runner.js';
import { TimerSleeper } from './timer-sleeper.js';
import { Db, type Database, type ServiceRepositories, type ServiceUnitOfWork } from '@carteiro/postgres';
import { sql, type Kysely } from 'kysely';

/** Jobs of a queue waiting to be fetched, due or not (pg-boss 10 has no call for it: its job table is read). */
async function queuedJobs(db: Kysely<Database>, queue: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(BOSS_SCHEMA, 'job')} WHERE name = ${queue} AND state IN ('created', 'retry')`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Worker processes connected to the database, idle ones included (each names its queue connections once). */
async function connectedWorkers(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(DISTINCT application_name)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND application_name LIKE ${`${WORKER_QUEUE_APPLICATION}:%`}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Dispatch settings from the environment (lease and slice lengths are tunable for tests). */
export const DispatchSettingsToken = Symbol.for('carteiro.worker.DispatchSettings');

export function dispatchSettingsFrom(config: Config, env: NodeJS.ProcessEnv = process.env): DispatchSettings & { censusMs: number } {
  const num = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    ...DEFAULT_DISPATCH_SETTINGS,
    pacingScale: config.pacingScale,
    leaseMs: num('CAMPAIGN_LANE_LEASE_MS', DEFAULT_DISPATCH_SETTINGS.leaseMs),
    sliceMs: num('CAMPAIGN_LANE_SLICE_MS', DEFAULT_DISPATCH_SETTINGS.sliceMs),
    // Sends of a paced lane recorded in one transaction (each still claimed on its own right before it goes).
    recordEvery: Math.floor(num('CAMPAIGN_LANE_RECORD_EVERY', DEFAULT_DISPATCH_SETTINGS.recordEvery)),
    // Lane turns of this process recorded in one transaction at most (1: each turn alone).
    recordGroupMax: Math.floor(num('CAMPAIGN_LANE_RECORD_GROUP', DEFAULT_DISPATCH_SETTINGS.recordGroupMax)),
    // How often a worker counts the lanes of every worker to take its share (lane-runner.ts).
    censusMs: num('CAMPAIGN_LANE_CENSUS_MS', 2_000),
  };
}

/** The campaign engine's worker side: start, lane and sweep jobs, the in-process lane runner. */
export const campaignsWorkerModule = new ContainerModule(({ bind, isBound }) => {
  bind(QueueDefinitions).toConstantValue(campaignQueueDefinitions);
  bind<CampaignEngineSettings>(CampaignEngineSettings)
    .toResolvedValue((config: Config) => ({ pacingScale: config.pacingScale }), [AppConfig])
    .inSingletonScope();
  bind<DispatchSettings>(DispatchSettingsToken).toResolvedValue((config: Config) => dispatchSettingsFrom(config), [AppConfig]).inSingletonScope();
  if (!isBound(Sleeper)) bind<Sleeper>(Sleeper).toConstantValue(new TimerSleeper());
  bind(StartCampaign)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new StartCampaign(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(SweepCampaigns)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, start: StartCampaign) => new SweepCampaigns(uow, clock, ids, start),
      [UnitOfWork, Clock, IdGenerator, StartCampaign],
    )
    .inSingletonScope();
  bind(RunDispatchLane)
    .toResolvedValue(
      (
        uow: ServiceUnitOfWork,
        clock: Clock,
        ids: IdGenerator,
        random: Random,
        gateway: ChannelGateway,
        sleeper: Sleeper,
        settings: DispatchSettings,
        direct: ServiceRepositories,
        timed?: TimedSends,
        observer?: DispatchObserver,
      ) => new RunDispatchLane(uow, clock, ids, random, gateway, sleeper, new HandleSenderFailure(uow, clock, ids), settings, timed ?? null, observer, direct),
      // Scheduled messages and reminders go through the same lanes when the scheduling module is loaded.
      [
        UnitOfWork,
        Clock,
        IdGenerator,
        Random,
        ChannelGateway,
        Sleeper,
        DispatchSettingsToken,
        Repositories,
        { serviceIdentifier: TimedSends, optional: true },
        { serviceIdentifier: DispatchObserver, optional: true },
      ],
    )
    .inSingletonScope();
  bind(LaneRunner)
    .toDynamicValue((context) => {
      const repos = context.get<ServiceRepositories>(Repositories);
      const db = context.get<Kysely<Database>>(Db);
      const sharing: LaneSharing = {
        census: async () => {
          const now = new Date();
          const [owners, workers, queued] = await Promise.all([repos.dispatchLanes.liveOwners(now), connectedWorkers(db), queuedJobs(db, CampaignQueues.lane)]);
          return { owners, queued, workers };
        },
        censusMs: dispatchSettingsFrom(context.get<Config>(AppConfig)).censusMs,
        tolerance: 0.1,
        // A worker gone: its lanes are taken over as soon as their leases run out, not at the next minute's sweep.
        orphansFound: async () => {
          await context.get(SweepCampaigns).execute();
        },
      };
      return new LaneRunner(() => context.get(RunDispatchLane), context.get<JobScheduler>(JobScheduler), context.get<Logger>(Logger), sharing);
    })
    .inSingletonScope();
  bind(JobHandler).toResolvedValue(campaignStartJob, [StartCampaign]);
  bind(JobHandler).toResolvedValue(
    (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => campaignPrepareJob(new PrepareCampaign(uow, clock, ids)),
    [UnitOfWork, Clock, IdGenerator],
  );
  bind(JobHandler).toResolvedValue(campaignLaneJob, [LaneRunner]);
  bind(JobHandler).toResolvedValue(campaignSweepJob, [SweepCampaigns]);
  bind(BackgroundService).toResolvedValue((runner: LaneRunner) => runner, [LaneRunner]);
  bind(BackgroundService).toResolvedValue(
    (sweep: SweepCampaigns, logger: Logger, settings: DispatchSettings) => campaignStartupSweep(sweep, logger, settings.leaseMs),
    [SweepCampaigns, Logger, DispatchSettingsToken],
  );
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue(
    (repos: ServiceRepositories) => (now: Date) => repos.idempotency.purge(new Date(now.getTime() - IDEMPOTENCY_TTL_MS)),
    [Repositories],
  );
});
