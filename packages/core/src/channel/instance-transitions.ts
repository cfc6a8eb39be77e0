import type { StoredDecider } from '../shared/apply-command.js';
import type { EventActor } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { ChannelInstance, InstanceCommand, InstanceEvent } from './channel-instance.js';
import { channelInstanceDecider, instanceDomainEvents } from './channel-instance.js';
import { ChannelQueues } from './channel-queues.js';
import type { ChannelRepositories } from './channel-repositories.js';

/**
 * The instance of one setor as a stored state machine, for `handleCommand`/`applyCommand`: loaded
 * with its row locked (so two processes observing the same change record it once), saved, and
 * its `channel.session_*` events recorded by `actor` in the same transaction. A setor without an
 * instance makes every command a no-op (the helpers answer null). A connection also enqueues, in
 * that transaction, a health check of the number, so that it does not wait for the minute's check.
 */
export function instanceOfSetor(
  setorId: string,
  ids: IdGenerator,
  actor: EventActor,
): StoredDecider<Repositories<ChannelRepositories>, ChannelInstance, InstanceCommand, InstanceEvent> {
  return {
    decider: channelInstanceDecider,
    load: (repos) => repos.channelInstances.findBySetorForUpdate(setorId),
    save: async (repos, instance, events) => {
      await repos.channelInstances.update(instance);
      if (events.some((e) => e.type === 'connected')) {
        await repos.jobs.enqueue(ChannelQueues.healthAtConnection, { setorId: instance.setorId, instanceId: instance.id });
      }
    },
    outbox: (instance, events) => instanceDomainEvents(instance, events, ids, actor),
  };
}
