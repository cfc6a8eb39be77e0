import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { Setor } from '../setores/index.js';
import type { ChannelInstance } from './channel-instance.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

/** An instance with its setor. */
export interface ChannelInstanceView {
  instance: ChannelInstance;
  setor: Setor;
}

/** GET /v1/channel/instances: the company's instances, oldest first, paginated. */
export class ListChannelInstances {
  constructor(private readonly repos: Repositories<ChannelRepositories & SetorRepositories>) {}

  async execute(input: { companyId: string; page: PageRequest }): Promise<Page<ChannelInstanceView>> {
    const [instances, setores] = await Promise.all([
      this.repos.channelInstances.listByCompany(input.companyId),
      this.repos.setores.allOfCompany(input.companyId),
    ]);
    const views = instances.flatMap((instance) => {
      const setor = setores.find((s) => s.id === instance.setorId);
      return setor ? [{ instance, setor }] : [];
    });
    const start = (input.page.page - 1) * input.page.limit;
    return {
      items: views.slice(start, start + input.page.limit),
      total: views.length,
      page: input.page.page,
      limit: input.page.limit,
      totalPages: Math.ceil(views.length / input.page.limit),
    };
  }
}
