/**
 * The one shape of the core's state machines (the "decider" of Emmett and Jérémie Chassaing):
 * `decide` turns a command and the current state into the events it causes, `evolve` applies one
 * event. Both are pure: time, ids and settings come in the command, never from a clock.
 *
 * - `decide` throws a `DomainError` (usually `InvalidTransitionError`) when the command is refused
 *   in that state, and returns `[]` when the command is allowed but changes nothing (an idempotent
 *   repeat), so that callers can skip the write.
 * - `evolve` never refuses: an event is something that already happened.
 *
 * The state is the stored row (state-stored, not event-sourced): use cases load it, run the command
 * through {@link transition} (or `applyCommand`/`handleCommand` of `apply-command.ts`, which also
 * save it and write the outbox in one transaction) and store the result.
 */
export interface Decider<State, Command, Event> {
  /**
   * The state before the first event, for machines whose entities are created by a command (a
   * webhook delivery starts as `null` and `create` makes it). Absent when entities are built by a
   * factory elsewhere (a campaign by `CreateCampaign`), so that `decide` only ever sees real ones.
   */
  initialState?(): State;
  /** The events `command` causes in `state`; `[]` when nothing changes; throws when refused. */
  decide(command: Command, state: State): Event[];
  /** `state` after `event`. */
  evolve(state: State, event: Event): State;
}

/** A command's outcome: the state after it and the events that led there (`[]`: unchanged). */
export interface Transition<State, Event> {
  state: State;
  events: Event[];
}

/** Applies events in order: `state` after all of them (the same object when there are none). */
export function evolveAll<State, Event>(decider: Pick<Decider<State, unknown, Event>, 'evolve'>, state: NoInfer<State>, events: readonly NoInfer<Event>[]): State {
  return events.reduce<State>((current, event) => decider.evolve(current, event), state);
}

/** Decides `command` in `state` and evolves through the events; throws what `decide` throws. */
export function transition<State, Command, Event>(
  decider: Decider<State, Command, Event>,
  state: NoInfer<State>,
  command: NoInfer<Command>,
): Transition<State, Event> {
  const events = decider.decide(command, state);
  return { state: evolveAll(decider, state, events), events };
}
