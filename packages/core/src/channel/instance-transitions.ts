import type { EventActor } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { ChannelInstance, InstanceCommand, InstanceEvent } from './channel-instance.js';
import { decide, evolveAll, instanceDomainEvents } from './channel-instance.js';

/** The instance after a command, and what happened. */
export interface TransitionResult {
  instance: ChannelInstance;
  events: InstanceEvent[];
}

/**
 * Runs one command against the box's instance inside the caller's transaction: locks the row,
 * decides on the locked state (so two processes observing the same change record it once), saves,
 * and records the domain events in the same transaction. Null when the box has no instance.
 */
export async function applyInstanceCommand(
  repos: Repositories,
  setorId: string,
  command: InstanceCommand,
  ids: IdGenerator,
  actor: EventActor,
): Promise<TransitionResult | null> {
  const current = await repos.channelInstances.findBySetorForUpdate(setorId);
  if (!current) return null;
  const events = decide(current, command);
  if (events.length === 0) return { instance: current, events };
  const instance = evolveAll(current, events);
  await repos.channelInstances.update(instance);
  await repos.events.record(instanceDomainEvents(current, events, ids, actor));
  return { instance, events };
}
