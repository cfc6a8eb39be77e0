import { NotFoundError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { Setor } from '../setores/index.js';
import type { ChannelInstance } from './channel-instance.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

/** The company's instance and its setor; another company's instance reads as missing. */
export async function loadInstanceInCompany(
  repos: Repositories<ChannelRepositories & SetorRepositories>,
  companyId: string,
  instanceId: string,
): Promise<{ instance: ChannelInstance; setor: Setor }> {
  const instance = await repos.channelInstances.findByIdInCompany(companyId, instanceId);
  const setor = instance ? await repos.setores.findByIdInCompany(companyId, instance.setorId) : null;
  if (!instance || !setor) throw new NotFoundError('Channel instance', { instance_id: instanceId });
  return { instance, setor };
}
