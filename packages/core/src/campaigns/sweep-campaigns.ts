import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { wakeLanes } from './lane-wakeups.js';
import { completeIfSettled } from './settle-outcomes.js';
import type { StartCampaign } from './start-campaign.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { UsageRepositories } from '../usage/index.js';

/**
 * The safety net run every minute and at worker start: starts campaigns whose start job was
 * lost, wakes lanes that have work but no live lease (a worker died, or a wake-up was missed),
 * and completes running campaigns with nothing left to send.
 */
export class SweepCampaigns {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories & CompanyRepositories & UsageRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly start: StartCampaign,
  ) {}

  async execute(): Promise<{ started: number; woken: number; completed: number }> {
    const now = this.clock.now();
    let started = 0;
    for (const campaign of await this.uow.transaction((repos) => repos.campaigns.dueToStart(now, 100))) {
      if ((await this.start.execute(campaign.id)) === 'started') started += 1;
    }
    const setores = await this.uow.transaction((repos) => repos.campaigns.setoresWithWork(now));
    await this.uow.transaction((repos) => wakeLanes(repos.jobs, setores));
    let completed = 0;
    for (const campaign of await this.uow.transaction((repos) => repos.campaigns.settledButRunning(100))) {
      if (await this.uow.transaction((repos) => completeIfSettled(repos, campaign.id, this.ids, now))) completed += 1;
    }
    return { started, woken: setores.length, completed };
  }
}
