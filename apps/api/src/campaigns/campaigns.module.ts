import {
  CampaignEngineSettings,
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
  warmingStatus,
  zonedDay,
  type Setor,
} from '@carteiro/core';
import { AppConfig, type Config } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import { SetorWarmingReader, type SetorWarmingView } from '../admin/admin-setores.controller.js';
import { ActiveCampaigns } from '../foundation/tokens.js';
import { Controller } from '../http/controller.js';
import { CampaignsController } from './campaigns.controller.js';

/** The campaign routes, and what other modules read about campaigns (active count, warming). */
export const campaignsModule = new ContainerModule(({ bind }) => {
  bind<CampaignEngineSettings>(CampaignEngineSettings)
    .toResolvedValue((config: Config) => ({ pacingScale: config.pacingScale }), [AppConfig])
    .inSingletonScope();
  bind(CreateCampaign)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock, ids: IdGenerator, settings: CampaignEngineSettings, urls: WebhookUrlPolicy) =>
        new CreateCampaign(uow, clock, ids, settings, urls),
      [UnitOfWork, Clock, IdGenerator, CampaignEngineSettings, WebhookUrlPolicy],
    )
    .inSingletonScope();
  bind(PauseCampaign)
    .toResolvedValue((uow: UnitOfWork, clock: Clock, ids: IdGenerator) => new PauseCampaign(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ResumeCampaign)
    .toResolvedValue((uow: UnitOfWork, clock: Clock) => new ResumeCampaign(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(CancelCampaign)
    .toResolvedValue((uow: UnitOfWork, clock: Clock, ids: IdGenerator) => new CancelCampaign(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(RetryCampaignMessages)
    .toResolvedValue((uow: UnitOfWork, clock: Clock) => new RetryCampaignMessages(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(ReadCampaigns)
    .toResolvedValue((repos: Repositories) => new ReadCampaigns(repos), [Repositories])
    .inSingletonScope();
  bind(ActiveCampaigns)
    .toResolvedValue(
      (repos: Repositories) => async (companyId: string) => (await repos.campaigns.activeOfCompany(companyId)).length,
      [Repositories],
    )
    .inSingletonScope();
  bind(SetorWarmingReader)
    .toResolvedValue(
      (repos: Repositories, clock: Clock) =>
        async (setor: Setor): Promise<SetorWarmingView> => {
          const company = await repos.companies.findById(setor.companyId);
          const day = zonedDay(clock.now(), company?.timezone ?? 'America/Sao_Paulo');
          const status = warmingStatus(setor, await repos.usage.setorHistory(setor.id, day));
          return { stage: status.stage, daily_limit: status.dailyLimit, sent_today: await repos.usage.sentBySetor(setor.id, day) };
        },
      [Repositories, Clock],
    )
    .inSingletonScope();
  bind(Controller).to(CampaignsController).inSingletonScope();
});
