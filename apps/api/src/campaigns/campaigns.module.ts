import {
  CampaignEngineSettings,
  campaignQueueDefinitions,
  CancelCampaign,
  Clock,
  CreateCampaign,
  IdGenerator,
  PauseCampaign,
  ReadCampaigns,
  Repositories,
  ResumeCampaign,
  RetryCampaignMessages,
  UnitOfWork,
  WebhookUrlPolicy,
  setorCapacityToday,
  DEFAULT_TIMEZONE,
  type Setor,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { AppConfig, type Config, bindSingleton } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import { SetorWarmingReader, type SetorWarmingView } from '../admin/setor-warming.js';
import { ActiveCampaigns } from '../foundation/tokens.js';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** The campaign use cases (routes: campaigns.routes.ts), and what other modules read about campaigns (active count, warming). */
export const campaignsModule = new ContainerModule(({ bind }) => {
  // The API enqueues campaign jobs in its transactions: it creates the queues as the worker does.
  bind(QueueDefinitions).toConstantValue(campaignQueueDefinitions);
  bind<CampaignEngineSettings>(CampaignEngineSettings)
    .toResolvedValue((config: Config) => ({ pacingScale: config.pacingScale }), [AppConfig])
    .inSingletonScope();
  bind(CreateCampaign)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, settings: CampaignEngineSettings, urls: WebhookUrlPolicy) =>
        new CreateCampaign(uow, clock, ids, settings, urls),
      [UnitOfWork, Clock, IdGenerator, CampaignEngineSettings, WebhookUrlPolicy],
    )
    .inSingletonScope();
  bindSingleton(bind, PauseCampaign, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ResumeCampaign, [UnitOfWork, Clock]);
  bindSingleton(bind, CancelCampaign, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, RetryCampaignMessages, [UnitOfWork, Clock]);
  bindSingleton(bind, ReadCampaigns, [Repositories]);
  bind(ActiveCampaigns)
    .toResolvedValue(
      (repos: ServiceRepositories) => async (companyId: string) => (await repos.campaigns.activeOfCompany(companyId)).length,
      [Repositories],
    )
    .inSingletonScope();
  bind(SetorWarmingReader)
    .toResolvedValue(
      (repos: ServiceRepositories, clock: Clock) =>
        async (setor: Setor): Promise<SetorWarmingView> => {
          const company = await repos.companies.findById(setor.companyId);
          const today = await setorCapacityToday(repos, setor, company?.timezone ?? DEFAULT_TIMEZONE, clock.now());
          return { stage: today.warming.stage, daily_limit: today.warming.dailyLimit, sent_today: today.sentToday };
        },
      [Repositories, Clock],
    )
    .inSingletonScope();
});
