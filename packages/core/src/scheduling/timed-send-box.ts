import type { ChannelRepositories } from '../channel/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { NotFoundError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { SetorRepositories } from '../setores/index.js';

/**
 * The box whose lane sends a timed message, chosen at creation: `setor_id` (404 when not the
 * company's) → a connected box the contact already talks through (affinity) → the company's first
 * connected box → its first box (the send then waits for it to connect, and retries). 404 when the
 * company has no box at all.
 */
export async function chooseTimedSendBox(
  repos: Repositories<ChannelRepositories & ContactRepositories & SetorRepositories>,
  companyId: string,
  setorId: string | null | undefined,
  contactId: string | null,
): Promise<string> {
  if (setorId) {
    const setor = await repos.setores.findByIdInCompany(companyId, setorId);
    if (!setor) throw new NotFoundError('Setor', { setor_id: setorId });
    return setor.id;
  }
  if (contactId) {
    for (const affinity of await repos.contactAffinities.listByContact(companyId, contactId)) {
      if ((await repos.channelInstances.findBySetor(affinity.setorId))?.status === 'connected') return affinity.setorId;
    }
  }
  const boxes = await repos.setores.allOfCompany(companyId);
  for (const box of boxes) {
    if ((await repos.channelInstances.findBySetor(box.id))?.status === 'connected') return box.id;
  }
  if (boxes[0]) return boxes[0].id;
  throw new NotFoundError('Setor', { reason: 'The company has no box to send from' });
}
