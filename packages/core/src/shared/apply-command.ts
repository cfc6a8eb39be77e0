import type { Decider, Transition } from './decider.js';
import { evolveAll } from './decider.js';
import type { DomainEvent, EventOutbox } from './domain-event.js';

/**
 * Where one state machine's state lives, for {@link applyCommand}: how to load it (locking its
 * row), how to store it, and which domain events its changes publish.
 */
export interface StoredDecider<Repos extends { events: EventOutbox }, State, Command, Event> {
  decider: Decider<State, Command, Event>;
  /**
   * The current state, its row locked until the transaction ends (`SELECT … FOR UPDATE`), so that
   * two processes deciding on the same change record it once. Null when there is nothing to act
   * on: the machine's `initialState()` is used then, or, without one, nothing happens.
   */
  load(repos: Repos): Promise<State | null>;
  /** Stores the state after the events (called only when there are events). */
  save(repos: Repos, state: State, events: readonly Event[]): Promise<void>;
  /** The domain events (webhook-facing facts) of the change; written in the same transaction. */
  outbox?(state: State, events: readonly Event[]): DomainEvent[];
}

/** The structural shape of `UnitOfWork` that {@link applyCommand} needs. */
export interface TransactionRunner<Repos> {
  transaction<T>(work: (repos: Repos) => Promise<T>): Promise<T>;
}

/**
 * Runs one command inside the caller's transaction: load with a row lock, decide, evolve, save,
 * and record the domain events. Null when `load` found nothing and the machine has no initial
 * state; the unchanged state with no events when the command changed nothing (nothing written).
 * A refused command throws, and the caller's transaction rolls back.
 */
export async function handleCommand<Repos extends { events: EventOutbox }, State, Command, Event>(
  repos: Repos,
  stored: StoredDecider<Repos, State, Command, Event>,
  command: Command,
): Promise<Transition<State, Event> | null> {
  const loaded = await stored.load(repos);
  let current: State;
  if (loaded !== null) current = loaded;
  else if (stored.decider.initialState) current = stored.decider.initialState();
  else return null;
  const events = stored.decider.decide(command, current);
  if (events.length === 0) return { state: current, events };
  const state = evolveAll(stored.decider, current, events);
  await stored.save(repos, state, events);
  const facts = stored.outbox?.(state, events) ?? [];
  if (facts.length > 0) await repos.events.record(facts);
  return { state, events };
}

/** {@link handleCommand} in a transaction of its own: the new state and its outbox events commit together. */
export function applyCommand<Repos extends { events: EventOutbox }, State, Command, Event>(
  uow: TransactionRunner<Repos>,
  stored: StoredDecider<Repos, State, Command, Event>,
  command: Command,
): Promise<Transition<State, Event> | null> {
  return uow.transaction((repos) => handleCommand(repos, stored, command));
}
